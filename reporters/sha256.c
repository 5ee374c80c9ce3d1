/* sha256: report.html's script hash through OpenSSL's libcrypto (see
 * sha256.h); Debian's libssl-dev, which libpq-dev already pulls in. */
#include "sha256.h"

#include <openssl/evp.h>
#include <string.h>

void sha256(const void *data, size_t n, uint8_t out[SHA256_LEN])
{
	unsigned int len = 0;
	if (!EVP_Digest(data, n, out, &len, EVP_sha256(), NULL) || len != SHA256_LEN)
		memset(out, 0, SHA256_LEN); /* cannot happen with a working libcrypto */
}

void sha256_base64(const void *data, size_t n, char out[SHA256_B64_LEN])
{
	uint8_t d[SHA256_LEN];
	sha256(data, n, d);
	EVP_EncodeBlock((unsigned char *)out, d, SHA256_LEN); /* 44 characters and a NUL */
}
