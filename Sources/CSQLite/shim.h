#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro cast Swift cannot import.
static inline sqlite3_destructor_type curator_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

// sqlite3_config is variadic, which Swift cannot call. Turns off SQLite's memory
// statistics (SQLITE_CONFIG_MEMSTATUS), which we never read and which take a global
// mutex around every allocation SQLite makes. Effective only before SQLite is
// initialised (the first connection opened); returns SQLITE_MISUSE after.
static inline int curator_sqlite_skip_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
