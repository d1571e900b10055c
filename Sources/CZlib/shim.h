// The system zlib (Debian's zlib1g-dev), for permessage-deflate.
#include <zlib.h>
