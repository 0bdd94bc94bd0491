/* fio output: see fuzz-parser.h for the properties checked. */
#define FUZZ_PARSER_KIND PARSER_FIO
#include "fuzz-parser.h"
