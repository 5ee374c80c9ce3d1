-- used by test_pgb_server: a sleep of 20 ms per transaction
\sleep 20 ms
SELECT 1;
