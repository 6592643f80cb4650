#ifndef PGWARDEN_CLIBPQ_SHIM_H
#define PGWARDEN_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#endif
