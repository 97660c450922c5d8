#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/ioctl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <microhttpd.h>

// Non-variadic doors into libmicrohttpd's variadic calls, which Swift cannot make, and the
// constants whose Swift import differs between the libmicrohttpd of Debian 12 (0.9.75) and of
// Debian 13 (1.0.1): in C they are the same on both.

/// Whether the library was built with TLS (GnuTLS). libmicrohttpd 1.0 adds MHD_FEATURE_SSL as
/// a deprecated alias of MHD_FEATURE_TLS, and Swift then imports the enum without the case
/// `.FEATURE_TLS` that 0.9.75's import has.
static inline int cmhd_supports_tls(void) {
    return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES;
}

/// The request-parsing discipline the server asks for: MHD_OPTION_CLIENT_DISCIPLINE_LVL at its
/// strictest (3: a request that RFC 9112 lets a server refuse is refused, with one 400 and the
/// connection closed), from libmicrohttpd 0.9.77 (MHD_VERSION 0x00097701), which introduced it. 0.9.75 has only
/// MHD_OPTION_STRICT_FOR_CLIENT, whose strict mode requires Host and refuses spaces in the target
/// but no more (HTTPServer's RequestChecks does the rest there), so none is asked of it: 0 is the
/// library's default, and `option` is left untouched.
static inline int cmhd_strictest_parsing(struct MHD_OptionItem *option) {
#if MHD_VERSION >= 0x00097701
    option->option = MHD_OPTION_CLIENT_DISCIPLINE_LVL;
    option->value = 3;
    option->ptr_value = NULL;
    return 3;
#else
    (void)option;
    return 0;
#endif
}

/// Starts a daemon with its accept policy and its options given as an array ending with
/// MHD_OPTION_END.
static inline struct MHD_Daemon *cmhd_start_daemon(unsigned int flags, MHD_AcceptPolicyCallback policy, void *policy_cls,
                                                   MHD_AccessHandlerCallback handler, void *handler_cls,
                                                   const struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, 0, policy, policy_cls, handler, handler_cls, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The peer's address, or NULL.
static inline const struct sockaddr *cmhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// The daemon serving the connection, or NULL.
static inline struct MHD_Daemon *cmhd_connection_daemon(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_DAEMON);
    return info == NULL ? NULL : info->daemon;
}

/// The connection's socket, or -1.
static inline int cmhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// The size of the request's head as received (request line, headers, blank line), or 0 before
/// the headers are in.
static inline size_t cmhd_request_header_size(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info == NULL ? 0 : info->header_size;
}

/// Whether libmicrohttpd 0.9.75 ended the request's head on a header line with an empty name:
/// 1 yes, 0 no, -1 cannot tell (another version, or a layout not recognised). Call it on the
/// first call of the access handler, with the `method` and `version` it was given.
///
/// 0.9.75 reads a line `:` (or `: x`) by writing a NUL over its colon, then sees that NUL as the
/// blank line that ends the head (connection.c, MHD_CONNECTION_HEADER_PART_RECEIVED): with a bare
/// LF, `:\n` is two bytes like the CRLF it replaces, the head's bytes in place are NULs in both
/// cases, and what follows runs as a second request. What tells them apart is the parser's
/// `connection->last`: the line it is holding to add as the next header, reset at each request;
/// after a blank line it is the last header's name (never empty), after `:` that empty line.
/// No public call gives it, so it is read from the connection's structure as 0.9.75 lays it out
/// (internal.h): `version`, the two enums `http_ver` and `keepalive`, `read_buffer`,
/// `write_buffer`, `last`, `colon`, `addr`, the thread's handle (8 or 16 bytes, as the build
/// chose), five `size_t`, then `header_size`, whose address MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE
/// returns. The layout is taken as right only when two of its fields hold what they must:
/// `version` the pointer the handler was given, `read_buffer` the end of the head.
/// libmicrohttpd 1.0 refuses an empty name itself (discipline level 3): -1 there.
static inline int cmhd_head_ended_by_empty_name(struct MHD_Connection *connection, const char *method,
                                                const char *version) {
#if MHD_VERSION == 0x00097500
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    if (info == NULL || method == NULL || version == NULL) return -1;
    const char *header_size_field = (const char *)info;
    size_t header_size;
    memcpy(&header_size, header_size_field, sizeof header_size);
    if (header_size == 0) return -1;
    const char *head_end = method + header_size;
    // From `header_size` back to `read_buffer`: five size_t, the thread's handle, `addr`,
    // `colon`, `last`, `write_buffer`, `read_buffer`.
    for (size_t handle = sizeof(pthread_t); handle <= 2 * sizeof(pthread_t); handle += sizeof(pthread_t)) {
        const char *read_buffer_field = header_size_field - 5 * sizeof(size_t) - handle - 5 * sizeof(char *);
        const char *version_field = read_buffer_field - 2 * sizeof(int) - sizeof(char *);
        const char *read_buffer, *version_held, *last;
        memcpy(&read_buffer, read_buffer_field, sizeof read_buffer);
        memcpy(&version_held, version_field, sizeof version_held);
        if (read_buffer != head_end || version_held != version) continue;
        memcpy(&last, read_buffer_field + 2 * sizeof(char *), sizeof last);
        return last != NULL && last[0] == '\0' ? 1 : 0;
    }
    return -1;
#else
    (void)connection;
    (void)method;
    (void)version;
    return -1;
#endif
}

/// The status of the response queued on the connection, or 0 when none is.
static inline unsigned int cmhd_queued_status(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_HTTP_STATUS);
    return info == NULL ? 0 : info->http_status;
}

/// Bytes received on a socket and not yet read, or -1.
static inline int cmhd_unread_bytes(int socket) {
    int count = 0;
    return ioctl(socket, FIONREAD, &count) == 0 ? count : -1;
}

/// Bytes the process has read from a TCP socket since it opened (received by the kernel minus
/// those still queued), or -1.
/// glibc's struct tcp_info stops before the fields Linux added since 4.1; the kernel only
/// appends to it, so this is its layout up to tcpi_bytes_received (linux/tcp.h, which clashes
/// with glibc's header in one module).
struct cmhd_tcp_info {
    struct tcp_info glibc;
    uint64_t pacing_rate;
    uint64_t max_pacing_rate;
    uint64_t bytes_acked;
    uint64_t bytes_received;
};

/// Bytes the process has read from a TCP socket since it opened (received by the kernel minus
/// those still queued), or -1 (also on a kernel too old to count them).
static inline int64_t cmhd_consumed_bytes(int socket) {
    struct cmhd_tcp_info info;
    socklen_t length = sizeof info;
    if (getsockopt(socket, IPPROTO_TCP, TCP_INFO, &info, &length) != 0 || length < sizeof info) return -1;
    int unread = cmhd_unread_bytes(socket);
    if (unread < 0) return -1;
    return (int64_t)info.bytes_received - unread;
}

/// libmicrohttpd's log message `format` with its numbers filled in and every string left out
/// (written `…`): a string argument can hold a client's target or headers, which never go into
/// a log line, where the numbers (a status, a port, a count) tell the operator what happened.
/// Without this the lines kept their placeholders ("HTTP response code is %u ('%s')"). Each
/// conversion's argument is taken from `args` by its C type, so the ones after a string stay
/// in step. Writes at most `size` bytes, NUL included.
static inline void cmhd_format_without_strings(char *out, size_t size, const char *format, va_list args) {
    size_t used = 0;
    if (size == 0) return;
    out[0] = '\0';
    for (const char *p = format; *p != '\0' && used + 1 < size;) {
        if (*p != '%') { out[used++] = *p++; continue; }
        const char *start = p++;
        if (*p == '%') { out[used++] = '%'; p++; continue; }
        while (*p != '\0' && strchr("-+ #0", *p) != NULL) p++;
        while (*p != '\0' && (strchr("0123456789.", *p) != NULL || *p == '*')) {
            if (*p == '*') (void)va_arg(args, int);
            p++;
        }
        char length[3] = {0};
        while (*p != '\0' && strchr("hlLqjzt", *p) != NULL) {
            if (strlen(length) < 2) length[strlen(length)] = *p;
            p++;
        }
        char conversion = *p;
        if (conversion == '\0') break;
        p++;
        char piece[64] = {0};
        if (conversion == 's') {
            (void)va_arg(args, const char *);
            snprintf(piece, sizeof piece, "\xE2\x80\xA6");
        } else if (strchr("diuoxXc", conversion) != NULL) {
            // The spec as written (flags, width, precision) but with any '*' already consumed:
            // numbers are printed plainly, at their C type's width.
            int is_signed = conversion == 'd' || conversion == 'i';
            if (length[0] == 'l' && length[1] == 'l') {
                if (is_signed) snprintf(piece, sizeof piece, "%lld", va_arg(args, long long));
                else snprintf(piece, sizeof piece, "%llu", va_arg(args, unsigned long long));
            } else if (length[0] == 'l' || length[0] == 'q' || length[0] == 'j' || length[0] == 'z' || length[0] == 't') {
                if (is_signed) snprintf(piece, sizeof piece, "%ld", va_arg(args, long));
                else snprintf(piece, sizeof piece, "%lu", va_arg(args, unsigned long));
            } else if (conversion == 'c') {
                (void)va_arg(args, int);
                snprintf(piece, sizeof piece, "\xE2\x80\xA6");
            } else {
                if (is_signed) snprintf(piece, sizeof piece, "%d", va_arg(args, int));
                else snprintf(piece, sizeof piece, "%u", va_arg(args, unsigned int));
            }
        } else if (strchr("feEgGaA", conversion) != NULL) {
            if (length[0] == 'L') snprintf(piece, sizeof piece, "%Lg", va_arg(args, long double));
            else snprintf(piece, sizeof piece, "%g", va_arg(args, double));
        } else if (conversion == 'p') {
            (void)va_arg(args, void *);
            snprintf(piece, sizeof piece, "\xE2\x80\xA6");
        } else {
            // An unknown conversion: the rest of the arguments cannot be read in step.
            snprintf(piece, sizeof piece, "%.*s", (int)(p - start), start);
            for (size_t i = 0; piece[i] != '\0' && used + 1 < size; i++) out[used++] = piece[i];
            for (; *p != '\0' && used + 1 < size; p++) out[used++] = *p;
            break;
        }
        for (size_t i = 0; piece[i] != '\0' && used + 1 < size; i++) out[used++] = piece[i];
    }
    out[used] = '\0';
}
