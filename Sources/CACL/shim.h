// POSIX ACLs (libacl1-dev): reading a folder's access ACL to decide who may read it.
#include <sys/types.h>
#include <sys/acl.h>
#include <acl/libacl.h>
