#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro cast Swift cannot import.
static inline sqlite3_destructor_type curator_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
