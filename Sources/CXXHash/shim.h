// xxHash (libxxhash-dev): XXH3-128, the content hash of exact duplicates. The
// streaming state is allocated by the library (XXH3_createState), so the daemon
// never depends on the state's layout.
#include <xxhash.h>
