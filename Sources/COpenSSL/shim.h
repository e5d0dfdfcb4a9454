#ifndef MHZ_COPENSSL_SHIM_H
#define MHZ_COPENSSL_SHIM_H
/* OpenSSL's libcrypto: SHA-256 of downloaded files through the EVP digest API
 * (EVP_DigestInit_ex(3)) and AES-128-CBC of encrypted HLS segments through the EVP cipher
 * API (EVP_DecryptInit_ex(3)); the same library libcurl already links for TLS. */
#include <openssl/evp.h>
#endif
