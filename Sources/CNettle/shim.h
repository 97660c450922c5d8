/* Nettle's Ed25519 (RFC 8032) from libhogweed, which GnuTLS (libmicrohttpd's TLS) links in
   anyway. */
#include <nettle/eddsa.h>
