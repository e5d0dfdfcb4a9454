#ifndef MHZ_COPENSSL_SHIM_H
#define MHZ_COPENSSL_SHIM_H
/* OpenSSL's libcrypto, for SHA-256 of downloaded files through the EVP digest API
 * (EVP_DigestInit_ex(3)): the same library libcurl already links for TLS. */
#include <openssl/evp.h>
#endif
