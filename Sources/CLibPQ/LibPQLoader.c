/* libpq, loaded when the process first needs it instead of when it starts.
 *
 * Why (issue 18): linked the usual way, libpq and the two dozen libraries it needs
 * (Kerberos, LDAP, GnuTLS, p11-kit, ...) are mapped and relocated before main runs:
 * measured with `perf stat`, `pgwarden --version` took 13.9 ms with libpq linked and
 * 5.6 ms without. Loaded with dlopen, the same work runs on a thread of its own
 * (pgwarden_libpq_preload, called first thing in main) while the command parses its
 * arguments and reads its input files, which need no libpq.
 *
 * Each libpq function pgwarden calls is defined here with libpq's own prototype (the
 * header is included, so the compiler checks each one) and calls the function of the
 * same name that dlsym found. The list is LIBPQ_FUNCTIONS: a function pgwarden starts
 * calling must be added to it (the link fails until it is).
 */
#include "CLibPQ.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* X(return type, name, parameters, arguments); XV for functions returning void. */
#define LIBPQ_FUNCTIONS(X, XV)                                                                      \
    X(int, PQcancel, (PGcancel * cancel, char *errbuf, int errbufsize), (cancel, errbuf, errbufsize)) \
    XV(PQclear, (PGresult * res), (res))                                                            \
    X(char *, PQcmdStatus, (PGresult * res), (res))                                                 \
    X(char *, PQcmdTuples, (PGresult * res), (res))                                                 \
    X(PGconn *, PQconnectdbParams, (const char *const *keywords, const char *const *values, int expand_dbname), \
      (keywords, values, expand_dbname))                                                            \
    XV(PQconninfoFree, (PQconninfoOption * connOptions), (connOptions))                             \
    X(PQconninfoOption *, PQconninfoParse, (const char *conninfo, char **errmsg), (conninfo, errmsg)) \
    X(int, PQconsumeInput, (PGconn * conn), (conn))                                                 \
    X(int, PQenterPipelineMode, (PGconn * conn), (conn))                                            \
    X(char *, PQerrorMessage, (const PGconn *conn), (conn))                                         \
    X(char *, PQescapeIdentifier, (PGconn * conn, const char *str, size_t len), (conn, str, len))   \
    X(char *, PQescapeLiteral, (PGconn * conn, const char *str, size_t len), (conn, str, len))      \
    X(int, PQexitPipelineMode, (PGconn * conn), (conn))                                             \
    XV(PQfinish, (PGconn * conn), (conn))                                                           \
    X(int, PQflush, (PGconn * conn), (conn))                                                        \
    X(char *, PQfname, (const PGresult *res, int field_num), (res, field_num))                      \
    XV(PQfreeCancel, (PGcancel * cancel), (cancel))                                                 \
    XV(PQfreemem, (void *ptr), (ptr))                                                               \
    X(PGcancel *, PQgetCancel, (PGconn * conn), (conn))                                             \
    X(int, PQgetCopyData, (PGconn * conn, char **buffer, int async), (conn, buffer, async))         \
    X(PGresult *, PQgetResult, (PGconn * conn), (conn))                                             \
    X(int, PQgetisnull, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(int, PQnfields, (const PGresult *res), (res))                                                 \
    X(int, PQntuples, (const PGresult *res), (res))                                                 \
    X(PGPing, PQpingParams, (const char *const *keywords, const char *const *values, int expand_dbname), \
      (keywords, values, expand_dbname))                                                            \
    X(int, PQpipelineSync, (PGconn * conn), (conn))                                                 \
    X(int, PQputCopyData, (PGconn * conn, const char *buffer, int nbytes), (conn, buffer, nbytes))  \
    X(int, PQputCopyEnd, (PGconn * conn, const char *errormsg), (conn, errormsg))                   \
    X(char *, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode))           \
    X(char *, PQresultErrorMessage, (const PGresult *res), (res))                                   \
    X(ExecStatusType, PQresultStatus, (const PGresult *res), (res))                                 \
    X(int, PQsendPrepare, (PGconn * conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes), \
      (conn, stmtName, query, nParams, paramTypes))                                                 \
    X(int, PQsendQuery, (PGconn * conn, const char *query), (conn, query))                          \
    X(int, PQsendQueryParams,                                                                       \
      (PGconn * conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, \
       const int *paramLengths, const int *paramFormats, int resultFormat),                         \
      (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat))  \
    X(int, PQsendQueryPrepared,                                                                     \
      (PGconn * conn, const char *stmtName, int nParams, const char *const *paramValues, const int *paramLengths, \
       const int *paramFormats, int resultFormat),                                                  \
      (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat))             \
    X(int, PQserverVersion, (const PGconn *conn), (conn))                                           \
    X(PQnoticeReceiver, PQsetNoticeReceiver, (PGconn * conn, PQnoticeReceiver proc, void *arg), (conn, proc, arg)) \
    X(int, PQsetnonblocking, (PGconn * conn, int arg), (conn, arg))                                 \
    X(int, PQsocket, (const PGconn *conn), (conn))                                                  \
    X(ConnStatusType, PQstatus, (const PGconn *conn), (conn))                                       \
    X(PGTransactionStatusType, PQtransactionStatus, (const PGconn *conn), (conn))

/* The functions dlsym found, each named after its libpq function. */
#define POINTER(type, name, parameters, arguments) static type(*found_##name) parameters;
#define POINTER_VOID(name, parameters, arguments) static void(*found_##name) parameters;
LIBPQ_FUNCTIONS(POINTER, POINTER_VOID)

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
/* NULL once libpq is loaded; otherwise why it is not. */
static const char *load_error = "libpq was not loaded";
static char load_error_text[512];

/* The names libpq's shared library goes by: its soname (found as the dynamic linker
   finds it: the binary's runpath, LD_LIBRARY_PATH, the system's cache), then where
   Homebrew keeps it on macOS. */
static const char *const library_names[] = {
#if defined(__APPLE__)
    "libpq.5.dylib", "/opt/homebrew/opt/libpq/lib/libpq.5.dylib", "/usr/local/opt/libpq/lib/libpq.5.dylib",
#else
    "libpq.so.5",
#endif
};

static void fail(const char *what, const char *detail) {
    snprintf(load_error_text, sizeof load_error_text, "%s: %s", what, detail ? detail : "unknown error");
    load_error = load_error_text;
}

static void load(void) {
    void *library = NULL;
    for (size_t i = 0; i < sizeof library_names / sizeof library_names[0] && library == NULL; i++) {
        /* RTLD_NOW: every relocation is done here, on the loading thread. */
        library = dlopen(library_names[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (library == NULL) {
        fail("cannot load libpq", dlerror());
        return;
    }
#define RESOLVE(type, name, parameters, arguments)                        \
    if ((*(void **)&found_##name = dlsym(library, #name)) == NULL) {       \
        fail("libpq has no " #name " (libpq 14 or newer is needed)", dlerror()); \
        return;                                                             \
    }
#define RESOLVE_VOID(name, parameters, arguments) RESOLVE(void, name, parameters, arguments)
    LIBPQ_FUNCTIONS(RESOLVE, RESOLVE_VOID)
    load_error = NULL;
}

const char *pgwarden_libpq_load_error(void) {
    pthread_once(&load_once, load);
    return load_error;
}

static void *load_in_background(void *unused) {
    (void)unused;
    pthread_once(&load_once, load);
    return NULL;
}

void pgwarden_libpq_preload(void) {
    pthread_t thread;
    /* When no thread can be started, libpq is loaded at its first use instead. */
    if (pthread_create(&thread, NULL, load_in_background, NULL) == 0) pthread_detach(thread);
}

/* Nothing can be done without libpq: said once, on standard error, with what to install
   (exit status 69, EX_UNAVAILABLE). Only reached at the first call into libpq, before
   anything was sent to a server. */
static void require_libpq(void) {
    const char *error = pgwarden_libpq_load_error();
    if (error == NULL) return;
    fprintf(stderr, "pgwarden: %s; pgwarden needs libpq 14 or newer (Debian, Ubuntu: apt-get install libpq5)\n", error);
    exit(69);
}

#define FORWARD(type, name, parameters, arguments) \
    type name parameters {                         \
        require_libpq();                           \
        return found_##name arguments;             \
    }
#define FORWARD_VOID(name, parameters, arguments) \
    void name parameters {                        \
        require_libpq();                          \
        found_##name arguments;                   \
    }
LIBPQ_FUNCTIONS(FORWARD, FORWARD_VOID)
