#ifndef PGWARDEN_CLIBPQ_H
#define PGWARDEN_CLIBPQ_H

/* libpq's API (the libpq-dev package puts it under postgresql/). Its functions are
   defined by LibPQLoader.c, which loads libpq itself when the process first needs it
   (or earlier, on a thread of its own: pgwarden_libpq_preload). */
#if __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#else
#include <libpq-fe.h>
#endif

/* Starts loading libpq on a thread of its own and returns at once. Later calls, and
   libpq's functions, wait for that load when it is not done yet. */
void pgwarden_libpq_preload(void);

/* Loads libpq if that was not done yet (waits); NULL when it is loaded, else why it
   could not be (a static string). */
const char *pgwarden_libpq_load_error(void);

#endif
