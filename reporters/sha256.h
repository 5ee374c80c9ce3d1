/* sha256: SHA-256 of a buffer (OpenSSL's libcrypto), and its base64 form, for the
 * hash of report.html's script in its Content-Security-Policy. */
#ifndef BENCHGRID_SHA256_H
#define BENCHGRID_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN 32
/* base64 of 32 bytes: 44 characters and the NUL */
#define SHA256_B64_LEN 45

void sha256(const void *data, size_t n, uint8_t out[SHA256_LEN]);
/* The digest as standard base64 with padding (RFC 4648), as CSP wants it. */
void sha256_base64(const void *data, size_t n, char out[SHA256_B64_LEN]);

#endif
