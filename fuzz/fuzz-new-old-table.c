/* the new,old table of the iommupt comparison: see fuzz-parser.h for the properties checked. */
#define FUZZ_PARSER_KIND PARSER_NEW_OLD_TABLE
#include "fuzz-parser.h"
