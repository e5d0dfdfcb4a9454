#ifndef MHZ_CCURL_SHIM_H
#define MHZ_CCURL_SHIM_H
/* Debian keeps curl.h in /usr/include/x86_64-linux-gnu/curl; pkg-config supplies that
 * include path, so the module map names this shim rather than an absolute header. */
#include <curl/curl.h>

/* curl_easy_setopt / curl_easy_getinfo are C variadic functions (and, under clang, also
 * type-checking macros). Swift imports neither, and calling a variadic through a
 * non-variadic prototype is undefined behaviour. These typed static-inline wrappers are
 * compiled by clang into the module: one entry point per argument kind. */

typedef size_t (*ccurl_data_cb)(char *ptr, size_t size, size_t nmemb, void *userdata);
typedef int (*ccurl_xferinfo_cb)(void *clientp, curl_off_t dltotal, curl_off_t dlnow,
                                 curl_off_t ultotal, curl_off_t ulnow);

static inline CURLcode ccurl_setopt_long(CURL *h, CURLoption opt, long v) {
    return curl_easy_setopt(h, opt, v);
}
static inline CURLcode ccurl_setopt_off(CURL *h, CURLoption opt, curl_off_t v) {
    return curl_easy_setopt(h, opt, v);
}
/* "Strings passed to libcurl as 'char *' arguments, are copied by the library" (since 7.17). */
static inline CURLcode ccurl_setopt_string(CURL *h, CURLoption opt, const char *v) {
    return curl_easy_setopt(h, opt, v);
}
static inline CURLcode ccurl_setopt_pointer(CURL *h, CURLoption opt, void *v) {
    return curl_easy_setopt(h, opt, v);
}
/* An slist is NOT copied: it must stay alive until the transfer is done. */
static inline CURLcode ccurl_setopt_slist(CURL *h, CURLoption opt, struct curl_slist *v) {
    return curl_easy_setopt(h, opt, v);
}
static inline CURLcode ccurl_setopt_data_cb(CURL *h, CURLoption opt, ccurl_data_cb cb) {
    return curl_easy_setopt(h, opt, cb);
}
static inline CURLcode ccurl_setopt_xferinfo_cb(CURL *h, CURLoption opt, ccurl_xferinfo_cb cb) {
    return curl_easy_setopt(h, opt, cb);
}
static inline CURLcode ccurl_getinfo_long(CURL *h, CURLINFO info, long *out) {
    return curl_easy_getinfo(h, info, out);
}
static inline CURLcode ccurl_getinfo_double(CURL *h, CURLINFO info, double *out) {
    return curl_easy_getinfo(h, info, out);
}
static inline CURLcode ccurl_getinfo_off(CURL *h, CURLINFO info, curl_off_t *out) {
    return curl_easy_getinfo(h, info, out);
}
static inline CURLcode ccurl_getinfo_string(CURL *h, CURLINFO info, char **out) {
    return curl_easy_getinfo(h, info, out);
}
static inline CURLcode ccurl_getinfo_slist(CURL *h, CURLINFO info, struct curl_slist **out) {
    return curl_easy_getinfo(h, info, out);
}

/* Share handles (curl_share_setopt is variadic too). CURLSHOPT_LOCKFUNC: "If your
 * application uses the shared object from multiple threads, you must set this callback
 * and the unlock callback" (curl_share_setopt(3)). */
typedef void (*ccurl_lock_cb)(CURL *handle, curl_lock_data data, curl_lock_access access, void *userptr);
typedef void (*ccurl_unlock_cb)(CURL *handle, curl_lock_data data, void *userptr);

static inline CURLSHcode ccurl_share_setopt_lock_cb(CURLSH *h, ccurl_lock_cb cb) {
    return curl_share_setopt(h, CURLSHOPT_LOCKFUNC, cb);
}
static inline CURLSHcode ccurl_share_setopt_unlock_cb(CURLSH *h, ccurl_unlock_cb cb) {
    return curl_share_setopt(h, CURLSHOPT_UNLOCKFUNC, cb);
}
static inline CURLSHcode ccurl_share_setopt_pointer(CURLSH *h, CURLSHoption opt, void *v) {
    return curl_share_setopt(h, opt, v);
}
static inline CURLSHcode ccurl_share_setopt_long(CURLSH *h, CURLSHoption opt, long v) {
    return curl_share_setopt(h, opt, v);
}
#endif
