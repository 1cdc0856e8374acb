// libsodium: Argon2id password hashes (crypto_pwhash_str), random bytes and
// constant-time comparison for the web gateway's logins and session tokens.
#include <sodium.h>
