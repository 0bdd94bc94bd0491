/* the kernel's dma_map_benchmark output: see fuzz-parser.h for the properties checked. */
#define FUZZ_PARSER_KIND PARSER_DMA_MAP_BENCHMARK
#include "fuzz-parser.h"
