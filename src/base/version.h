/* lrutop's version: --version, the recording's header, the JSON results. */
#ifndef LRUTOP_VERSION_H
#define LRUTOP_VERSION_H

#ifndef LRUTOP_VERSION
#define LRUTOP_VERSION "0.1.0"
#endif

#endif
