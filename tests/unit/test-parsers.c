/*
 * Unit tests for src/parsers: every format on real fio and hyperfine output,
 * on llama-bench output built to llama-bench's documented format, on
 * dma_map_benchmark, KTAP and new,old table output built to the kernel's
 * (tests/fixtures/parsers/, each README cites its source), plus every
 * error path.
 *
 * Expected values were read off the fixture files themselves.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/parse-error.h"
#include "lib/strbuf.h"
#include "stats/metric.h"
#include "parsers/parser.h"

#define MAX_SAMPLES 16
#define MAX_METRICS 24
#define H BETTER_HIGHER
#define L BETTER_LOWER

struct expected_metric {
	const char *name;
	enum metric_better better;
	const char *unit;
	size_t n;
	double samples[MAX_SAMPLES];
};

struct parse_case {
	const char *file;                /* below tests/fixtures/parsers/ */
	enum parser_kind kind;           /* what parser_parse() is asked for */
	const char *selector;
	enum parser_kind detected;       /* what parser_detect() says */
	unsigned warning_line;           /* 0: no warning expected */
	const char *warning;             /* a part of the warning */
	size_t n_metrics;
	struct expected_metric metrics[MAX_METRICS];
};

static const struct parse_case parse_cases[] = {
	/* fio, captured */
	{ "fio/randread.json", PARSER_AUTO, NULL, PARSER_FIO, 0, NULL, 4, {
		{ "randread.iops", H, "IOPS", 1, { 32909.090909 } },
		{ "randread.bw_kib", H, "KiB/s", 1, { 131636 } },
		{ "randread.clat_mean_ns", L, "ns", 1, { 216149.652510 } },
		{ "randread.clat_p99_ns", L, "ns", 1, { 378880 } },
	} },
	{ "fio/randread-3reps.json", PARSER_FIO, NULL, PARSER_FIO, 0, NULL, 4, {
		{ "randread.iops", H, "IOPS", 3, { 32878.121878, 33065.934066, 31868.131868 } },
		{ "randread.bw_kib", H, "KiB/s", 3, { 131512, 132263, 127472 } },
		{ "randread.clat_mean_ns", L, "ns", 3, { 216508.712619, 215011.721079, 223583.124984 } },
		{ "randread.clat_p99_ns", L, "ns", 3, { 415744, 370688, 391168 } },
	} },
	{ "fio/randrw.json", PARSER_AUTO, NULL, PARSER_FIO, 0, NULL, 8, {
		{ "mixed.read.iops", H, "IOPS", 1, { 18295.704296 } },
		{ "mixed.read.bw_kib", H, "KiB/s", 1, { 73182 } },
		{ "mixed.read.clat_mean_ns", L, "ns", 1, { 256730.439118 } },
		{ "mixed.read.clat_p99_ns", L, "ns", 1, { 460800 } },
		{ "mixed.write.iops", H, "IOPS", 1, { 7775.224775 } },
		{ "mixed.write.bw_kib", H, "KiB/s", 1, { 31100 } },
		{ "mixed.write.clat_mean_ns", L, "ns", 1, { 323887.494796 } },
		{ "mixed.write.clat_p99_ns", L, "ns", 1, { 585728 } },
	} },
	{ "fio/two-jobs.json", PARSER_AUTO, NULL, PARSER_FIO, 0, NULL, 8, {
		{ "seqread.iops", H, "IOPS", 1, { 30388.611389 } },
		{ "seqread.bw_kib", H, "KiB/s", 1, { 121554 } },
		{ "seqread.clat_mean_ns", L, "ns", 1, { 234513.512311 } },
		{ "seqread.clat_p99_ns", L, "ns", 1, { 501760 } },
		{ "randwrite.iops", H, "IOPS", 1, { 39656.343656 } },
		{ "randwrite.bw_kib", H, "KiB/s", 1, { 158625 } },
		{ "randwrite.clat_mean_ns", L, "ns", 1, { 183624.809830 } },
		{ "randwrite.clat_p99_ns", L, "ns", 1, { 659456 } },
	} },
	{ "fio/no-percentiles.json", PARSER_AUTO, NULL, PARSER_FIO, 0, NULL, 3, {
		{ "noperc.iops", H, "IOPS", 1, { 31144.855145 } },
		{ "noperc.bw_kib", H, "KiB/s", 1, { 124579 } },
		{ "noperc.clat_mean_ns", L, "ns", 1, { 228497.590775 } },
	} },
	{ "fio/psync-note.json", PARSER_AUTO, NULL, PARSER_FIO, 1, "skipped 1 line of text", 4, {
		{ "syncread.iops", H, "IOPS", 1, { 11447.552448 } },
		{ "syncread.bw_kib", H, "KiB/s", 1, { 45790 } },
		{ "syncread.clat_mean_ns", L, "ns", 1, { 86298.933066 } },
		{ "syncread.clat_p99_ns", L, "ns", 1, { 156672 } },
	} },
	{ "fio/json-normal.txt", PARSER_AUTO, NULL, PARSER_FIO, 1, "skipped 30 lines of text", 4, {
		{ "randread.iops", H, "IOPS", 1, { 31947.052947 } },
		{ "randread.bw_kib", H, "KiB/s", 1, { 127788 } },
		{ "randread.clat_mean_ns", L, "ns", 1, { 222660.054692 } },
		{ "randread.clat_p99_ns", L, "ns", 1, { 387072 } },
	} },
	/* hyperfine, captured */
	{ "hyperfine/two-commands.json", PARSER_AUTO, NULL, PARSER_HYPERFINE, 0, NULL, 2, {
		{ "sleep 0.01", L, "s", 5, { 0.01429999178, 0.013975464780000002, 0.014424777780000002,
					     0.014329618780000001, 0.014466407780000003 } },
		{ "true", L, "s", 5, { 0.00093128078, 0.00007015477999999971, 0.000016032779999999944,
				       0.0, 0.0 } },
	} },
	{ "hyperfine/parameters.json", PARSER_HYPERFINE, NULL, PARSER_HYPERFINE, 0, NULL, 3, {
		{ "sleep 0.010", L, "s", 3, { 0.01422310406, 0.014274070060000003, 0.01459852706 } },
		{ "sleep 0.020", L, "s", 3, { 0.02443191006, 0.02525188806, 0.02495976306 } },
		{ "sleep 0.030", L, "s", 3, { 0.034933303060000004, 0.033253271060000006,
					      0.035776625060000004 } },
	} },
	{ "hyperfine/named.json", PARSER_AUTO, NULL, PARSER_HYPERFINE, 0, NULL, 1, {
		{ "short sleep", L, "s", 4, { 0.009061539240000001, 0.00971925824, 0.00925697024,
					      0.009501755240000001 } },
	} },
	{ "hyperfine/sleep-2reps.json", PARSER_AUTO, NULL, PARSER_HYPERFINE, 0, NULL, 1, {
		{ "sleep 0.01", L, "s", 6, { 0.014249074, 0.013701784000000002, 0.013784230000000001,
					     0.014176896000000001, 0.013816281000000001, 0.01377366 } },
	} },
	/*
	 * --export-json /dev/stdout through a pipe: the human text, then the
	 * export after each command ({sleep}, then {sleep, true}): the interim
	 * one is not counted twice.
	 */
	{ "hyperfine/stdout-pipe.txt", PARSER_AUTO, NULL, PARSER_HYPERFINE, 0, NULL, 2, {
		{ "sleep 0.01", L, "s", 5, { 0.011783359540000003, 0.008490710540000002, 0.008516789540000003,
					     0.01234486354, 0.00900234054 } },
		{ "true", L, "s", 5, { 0.00036386754000000167, 0, 0, 0, 0 } },
	} },
	{ "hyperfine/failing.json", PARSER_AUTO, NULL, PARSER_HYPERFINE, 1,
	  "results[0] ('false'): 3 of 3 runs failed", 2, {
		{ "false", L, "s", 3, { 0.013795882, 0.032274040000000004, 0.013103016 } },
		{ "sleep 0.005", L, "s", 3, { 0.018474121, 0.017574912, 0.025296775 } },
	} },
	/* llama-bench, built to its documented format */
	{ "llama-bench/gptoss-vulkan-depths.jsonl", PARSER_AUTO, NULL, PARSER_LLAMA_BENCH, 0, NULL, 6, {
		{ "pp512", H, "t/s", 5, { 997.637, 1013.81, 1020.05, 1004.82, 996.577 } },
		{ "tg128", H, "t/s", 5, { 53.0652, 53.3538, 53.6831, 52.4544, 52.4135 } },
		{ "pp512 @ d32768", H, "t/s", 5, { 345.321, 344.526, 348.159, 346.269, 342.551 } },
		{ "tg128 @ d32768", H, "t/s", 5, { 38.0952, 39.1819, 38.0897, 37.9002, 37.7652 } },
		{ "pp512 @ d65536", H, "t/s", 5, { 214.805, 214.912, 213.86, 214.467, 215.186 } },
		{ "tg128 @ d65536", H, "t/s", 5, { 30.6105, 30.7334, 30.4638, 29.8559, 30.6133 } },
	} },
	{ "llama-bench/two-models.json", PARSER_LLAMA_BENCH, NULL, PARSER_LLAMA_BENCH, 0, NULL, 4, {
		{ "gpt-oss 120B MXFP4 MoE | pp512", H, "t/s", 5,
		  { 995.404, 1012.35, 1007.19, 1005.15, 1019.77 } },
		{ "gpt-oss 120B MXFP4 MoE | tg128", H, "t/s", 5,
		  { 53.1351, 52.9543, 54.0572, 52.8374, 52.4293 } },
		{ "qwen3next 80B.A3B Q4_K - Medium | pp512", H, "t/s", 5,
		  { 1459.66, 1472.21, 1489.75, 1492.61, 1496.86 } },
		{ "qwen3next 80B.A3B Q4_K - Medium | tg128", H, "t/s", 5,
		  { 45.528, 45.4704, 44.9985, 45.3078, 45.0078 } },
	} },
	{ "llama-bench/threads-sweep.jsonl", PARSER_AUTO, NULL, PARSER_LLAMA_BENCH, 0, NULL, 2, {
		{ "pp512 n_threads=8", H, "t/s", 5, { 991.951, 989.492, 966.564, 961, 979.004 } },
		{ "pp512 n_threads=16", H, "t/s", 5, { 1019.71, 1010.52, 997.241, 1006.98, 1026.52 } },
	} },
	{ "llama-bench/pg-3runs.json", PARSER_AUTO, NULL, PARSER_LLAMA_BENCH, 0, NULL, 1, {
		{ "pp512+tg128", H, "t/s", 9, { 236.353, 235.922, 235.878, 234.621, 236.434, 235.963,
						238.594, 233.548, 242.113 } },
	} },
	{ "llama-bench/killed.json", PARSER_AUTO, NULL, PARSER_LLAMA_BENCH, 126,
	  "cut off after 2 complete results", 2, {
		{ "pp512 @ d65536", H, "t/s", 5, { 214.415, 217.858, 212.92, 210.778, 215.211 } },
		{ "tg128 @ d65536", H, "t/s", 5, { 30.6024, 30.5307, 30.5734, 30.3839, 30.2402 } },
	} },
	/* the kernel's dma_map_benchmark, built to its printf formats */
	{ "dma-map-benchmark/one-run.txt", PARSER_AUTO, NULL, PARSER_DMA_MAP_BENCHMARK, 0, NULL, 4, {
		{ "map latency", L, "us", 1, { 1.0 } },
		{ "map stddev", L, "us", 1, { 0.3 } },
		{ "unmap latency", L, "us", 1, { 1.3 } },
		{ "unmap stddev", L, "us", 1, { 0.3 } },
	} },
	{ "dma-map-benchmark/three-runs.txt", PARSER_DMA_MAP_BENCHMARK, NULL, PARSER_DMA_MAP_BENCHMARK, 0, NULL, 4, {
		{ "map latency", L, "us", 3, { 0.7, 0.8, 0.7 } },
		{ "map stddev", L, "us", 3, { 0.1, 0.1, 0.2 } },
		{ "unmap latency", L, "us", 3, { 0.8, 0.8, 0.9 } },
		{ "unmap stddev", L, "us", 3, { 0.2, 0.1, 0.2 } },
	} },
	{ "dma-map-benchmark/sg-mode.txt", PARSER_AUTO, NULL, PARSER_DMA_MAP_BENCHMARK, 0, NULL, 4, {
		{ "map latency", L, "us", 1, { 1.4 } },
		{ "map stddev", L, "us", 1, { 0.3 } },
		{ "unmap latency", L, "us", 1, { 1.3 } },
		{ "unmap stddev", L, "us", 1, { 0.3 } },
	} },
	/* the new,old table of seed 004 */
	{ "new-old-table/seed-004.txt", PARSER_AUTO, NULL, PARSER_NEW_OLD_TABLE, 0, NULL, 24, {
		{ "map_pages 2^12 avg new", L, "ns", 1, { 331 } },
		{ "map_pages 2^12 avg old", L, "ns", 1, { 249 } },
		{ "map_pages 2^12 min new", L, "ns", 1, { 289 } },
		{ "map_pages 2^12 min old", L, "ns", 1, { 214 } },
		{ "map_pages 2^21 avg new", L, "ns", 1, { 335 } },
		{ "map_pages 2^21 avg old", L, "ns", 1, { 243 } },
		{ "map_pages 2^21 min new", L, "ns", 1, { 306 } },
		{ "map_pages 2^21 min old", L, "ns", 1, { 222 } },
		{ "map_pages 2^30 avg new", L, "ns", 1, { 226 } },
		{ "map_pages 2^30 avg old", L, "ns", 1, { 238 } },
		{ "map_pages 2^30 min new", L, "ns", 1, { 205 } },
		{ "map_pages 2^30 min old", L, "ns", 1, { 215 } },
		{ "unmap_pages 2^12 avg new", L, "ns", 1, { 389 } },
		{ "unmap_pages 2^12 avg old", L, "ns", 1, { 272 } },
		{ "unmap_pages 2^12 min new", L, "ns", 1, { 347 } },
		{ "unmap_pages 2^12 min old", L, "ns", 1, { 237 } },
		{ "unmap_pages 2^21 avg new", L, "ns", 1, { 321 } },
		{ "unmap_pages 2^21 avg old", L, "ns", 1, { 261 } },
		{ "unmap_pages 2^21 min new", L, "ns", 1, { 297 } },
		{ "unmap_pages 2^21 min old", L, "ns", 1, { 239 } },
		{ "unmap_pages 2^30 avg new", L, "ns", 1, { 237 } },
		{ "unmap_pages 2^30 avg old", L, "ns", 1, { 251 } },
		{ "unmap_pages 2^30 min new", L, "ns", 1, { 214 } },
		{ "unmap_pages 2^30 min old", L, "ns", 1, { 228 } },
	} },
	{ "new-old-table/cache-flush.txt", PARSER_NEW_OLD_TABLE, NULL, PARSER_NEW_OLD_TABLE, 0, NULL, 24, {
		{ "map_pages 2^12 avg new", L, "ns", 1, { 331 } },
		{ "map_pages 2^12 avg old", L, "ns", 1, { 249 } },
		{ "map_pages 2^12 min new", L, "ns", 1, { 289 } },
		{ "map_pages 2^12 min old", L, "ns", 1, { 214 } },
		{ "map_pages 2^21 avg new", L, "ns", 1, { 335 } },
		{ "map_pages 2^21 avg old", L, "ns", 1, { 243 } },
		{ "map_pages 2^21 min new", L, "ns", 1, { 306 } },
		{ "map_pages 2^21 min old", L, "ns", 1, { 222 } },
		{ "map_pages 2^30 avg new", L, "ns", 1, { 226 } },
		{ "map_pages 2^30 avg old", L, "ns", 1, { 238 } },
		{ "map_pages 2^30 min new", L, "ns", 1, { 205 } },
		{ "map_pages 2^30 min old", L, "ns", 1, { 215 } },
		{ "unmap_pages 2^12 avg new", L, "ns", 1, { 389 } },
		{ "unmap_pages 2^12 avg old", L, "ns", 1, { 272 } },
		{ "unmap_pages 2^12 min new", L, "ns", 1, { 347 } },
		{ "unmap_pages 2^12 min old", L, "ns", 1, { 237 } },
		{ "unmap_pages 2^21 avg new", L, "ns", 1, { 321 } },
		{ "unmap_pages 2^21 avg old", L, "ns", 1, { 261 } },
		{ "unmap_pages 2^21 min new", L, "ns", 1, { 297 } },
		{ "unmap_pages 2^21 min old", L, "ns", 1, { 239 } },
		{ "unmap_pages 2^30 avg new", L, "ns", 1, { 237 } },
		{ "unmap_pages 2^30 avg old", L, "ns", 1, { 251 } },
		{ "unmap_pages 2^30 min new", L, "ns", 1, { 214 } },
		{ "unmap_pages 2^30 min old", L, "ns", 1, { 228 } },
	} },
	{ "new-old-table/formats.txt", PARSER_AUTO, NULL, PARSER_NEW_OLD_TABLE, 0, NULL, 24, {
		{ "iommu_map() 2^12 (AMDV1) avg new", L, "ns", 1, { 53 } },
		{ "iommu_map() 2^12 (AMDV1) avg old", L, "ns", 1, { 66 } },
		{ "iommu_map() 2^12 (AMDV1) min new", L, "ns", 1, { 51 } },
		{ "iommu_map() 2^12 (AMDV1) min old", L, "ns", 1, { 63 } },
		{ "iommu_map() 256*2^12 (AMDV1) avg new", L, "ns", 1, { 386 } },
		{ "iommu_map() 256*2^12 (AMDV1) avg old", L, "ns", 1, { 1909 } },
		{ "iommu_map() 256*2^12 (AMDV1) min new", L, "ns", 1, { 367 } },
		{ "iommu_map() 256*2^12 (AMDV1) min old", L, "ns", 1, { 1795 } },
		{ "iommu_map() 256*2^21 (AMDV1) avg new", L, "ns", 1, { 362 } },
		{ "iommu_map() 256*2^21 (AMDV1) avg old", L, "ns", 1, { 1633 } },
		{ "iommu_map() 256*2^21 (AMDV1) min new", L, "ns", 1, { 355 } },
		{ "iommu_map() 256*2^21 (AMDV1) min old", L, "ns", 1, { 1556 } },
		{ "iommu_map() 2^12 (AMDv2) avg new", L, "ns", 1, { 56 } },
		{ "iommu_map() 2^12 (AMDv2) avg old", L, "ns", 1, { 62 } },
		{ "iommu_map() 2^12 (AMDv2) min new", L, "ns", 1, { 52 } },
		{ "iommu_map() 2^12 (AMDv2) min old", L, "ns", 1, { 59 } },
		{ "iommu_map() 256*2^12 (AMDv2) avg new", L, "ns", 1, { 405 } },
		{ "iommu_map() 256*2^12 (AMDv2) avg old", L, "ns", 1, { 1355 } },
		{ "iommu_map() 256*2^12 (AMDv2) min new", L, "ns", 1, { 357 } },
		{ "iommu_map() 256*2^12 (AMDv2) min old", L, "ns", 1, { 1292 } },
		{ "iommu_map() 256*2^21 (AMDv2) avg new", L, "ns", 1, { 393 } },
		{ "iommu_map() 256*2^21 (AMDv2) avg old", L, "ns", 1, { 1160 } },
		{ "iommu_map() 256*2^21 (AMDv2) min new", L, "ns", 1, { 358 } },
		{ "iommu_map() 256*2^21 (AMDv2) min old", L, "ns", 1, { 1114 } },
	} },
	/* any JSON, one number per document */
	{ "hyperfine/two-commands.json", PARSER_JSON, ".results[0].mean", PARSER_HYPERFINE, 0, NULL, 1, {
		{ ".results[0].mean", H, "", 1, { 0.01429925218 } },
	} },
	{ "hyperfine/two-commands.json", PARSER_JSON, "results.1.mean", PARSER_HYPERFINE, 0, NULL, 1, {
		{ "results.1.mean", H, "", 1, { 0.00020349366799999992 } },
	} },
	{ "hyperfine/two-commands.json", PARSER_JSON, ".results[-1][\"median\"]", PARSER_HYPERFINE, 0, NULL, 1, {
		{ ".results[-1][\"median\"]", H, "", 1, { 0.000016032779999999944 } },
	} },
	{ "hyperfine/sleep-2reps.json", PARSER_JSON, ".results[0].mean", PARSER_HYPERFINE, 0, NULL, 1, {
		{ ".results[0].mean", H, "", 2, { 0.013911696000000001, 0.013922279000000001 } },
	} },
	{ "fio/randread-3reps.json", PARSER_JSON, "jobs[0].read.iops", PARSER_FIO, 0, NULL, 1, {
		{ "jobs[0].read.iops", H, "", 3, { 32878.121878, 33065.934066, 31868.131868 } },
	} },
};

/* Text inputs, for the plain-number format and for edge cases. */
struct text_case {
	const char *what;
	const char *data;
	enum parser_kind kind;
	const char *selector;
	enum parser_kind detected;
	struct expected_metric metric;
};

static const struct text_case text_cases[] = {
	{ "numbers", "12.5\n13\n\n  14.25  \n", PARSER_AUTO, NULL, PARSER_NUMBER,
	  { "value", H, "", 3, { 12.5, 13, 14.25 } } },
	{ "numbers with settings", "# latency of one request\n# better: lower\n# unit: ms\n"
	  "1.5\n# rep 2\n2e0\r\n-3e-1\n0\n", PARSER_AUTO, NULL, PARSER_NUMBER,
	  { "value", L, "ms", 4, { 1.5, 2, -0.3, 0 } } },
	{ "numbers, better higher", "# better: higher\n+7\n.5\n", PARSER_NUMBER, NULL, PARSER_NUMBER,
	  { "value", H, "", 2, { 7, 0.5 } } },
	{ "one number, no newline", "42", PARSER_AUTO, NULL, PARSER_NUMBER,
	  { "value", H, "", 1, { 42 } } },
	{ "bare JSON numbers", "1\n2\n 3.5", PARSER_JSON, ".", PARSER_NUMBER,
	  { ".", H, "", 3, { 1, 2, 3.5 } } },
	{ "JSON documents on one line", "{\"x\":{\"y\":[5,6]}}{\"x\":{\"y\":[7,-8]}}", PARSER_JSON,
	  ".x.y[1]", PARSER_AUTO, { ".x.y[1]", H, "", 2, { 6, -8 } } },
	{ "key with a dot", "{\"a.b\": 3}", PARSER_JSON, ".[\"a.b\"]", PARSER_AUTO,
	  { ".[\"a.b\"]", H, "", 1, { 3 } } },
	{ "llama-bench average only", "{\"model_type\": \"m\", \"n_prompt\": 0, \"n_gen\": 16, "
	  "\"avg_ts\": 12.5}\n", PARSER_AUTO, NULL, PARSER_LLAMA_BENCH,
	  { "tg16", H, "t/s", 1, { 12.5 } } },
	{ "llama-bench empty array then jsonl", "[\n]\n{\"model_type\": \"m\", \"n_prompt\": 64, "
	  "\"n_gen\": 0, \"samples_ts\": [1, 2]}\n", PARSER_LLAMA_BENCH, NULL, PARSER_AUTO,
	  { "pp64", H, "t/s", 2, { 1, 2 } } },
	{ "llama-bench, one model file of two types", "{\"model_type\": \"m\", \"model_filename\": "
	  "\"a.gguf\", \"n_prompt\": 0, \"n_gen\": 16, \"avg_ts\": 1}\n{\"model_type\": \"m\", "
	  "\"model_filename\": \"b.gguf\", \"n_prompt\": 0, \"n_gen\": 16, \"avg_ts\": 2}\n",
	  PARSER_AUTO, NULL, PARSER_LLAMA_BENCH, { "b.gguf | tg16", H, "t/s", 1, { 2 } } },
};

struct error_case {
	const char *what;
	const char *file;       /* a fixture, or NULL for data */
	const char *data;
	enum parser_kind kind;
	const char *selector;
	int rc;
	unsigned line, column;
	const char *message;    /* a part of the message */
};

static const struct error_case error_cases[] = {
	{ "empty", NULL, "", PARSER_AUTO, NULL, -EINVAL, 0, 0, "empty file" },
	{ "blank", NULL, " \n\t\n", PARSER_NUMBER, NULL, -EINVAL, 0, 0, "empty file" },
	{ "unrecognised", NULL, "hello world\n", PARSER_AUTO, NULL, -ENOMSG, 0, 0, "not recognised" },
	{ "unrecognised JSON", NULL, "{\"a\": 1}\n", PARSER_AUTO, NULL, -ENOMSG, 0, 0, "not recognised" },
	{ "numbers with a word, auto", NULL, "# ms\n12.5\n\n13x\n", PARSER_AUTO, NULL, -EINVAL, 4, 3,
	  "not a number: '13x'" },
	{ "numbers with a bad setting, auto", NULL, "1\n# better: more\n", PARSER_AUTO, NULL, -EINVAL, 2, 11,
	  "lower or higher" },
	{ "a word, then numbers, auto", NULL, "result\n12.5\n", PARSER_AUTO, NULL, -ENOMSG, 0, 0,
	  "not recognised" },
	{ "bad JSON, auto", NULL, "{\"a\": 1,\n \"b\": }", PARSER_AUTO, NULL, -EINVAL, 2, 7, "invalid JSON" },
	/* number */
	{ "word", NULL, "12.5\n13x\n", PARSER_NUMBER, NULL, -EINVAL, 2, 3, "not a number: '13x'" },
	{ "unit after number", NULL, "1\n 2 ms\n", PARSER_NUMBER, NULL, -EINVAL, 2, 3, "not a number" },
	{ "nan", NULL, "nan\n", PARSER_NUMBER, NULL, -EINVAL, 1, 1, "not a number" },
	{ "inf", NULL, "1\n-inf\n", PARSER_NUMBER, NULL, -EINVAL, 2, 2, "not a number" },
	{ "hex", NULL, "0x10\n", PARSER_NUMBER, NULL, -EINVAL, 1, 2, "not a number" },
	{ "overflow", NULL, "1e400\n", PARSER_NUMBER, NULL, -EINVAL, 1, 1, "out of range" },
	{ "two signs", NULL, "1\n--2\n", PARSER_NUMBER, NULL, -EINVAL, 2, 1, "not a number" },
	{ "lone dot", NULL, ".\n", PARSER_NUMBER, NULL, -EINVAL, 1, 1, "not a number" },
	{ "NUL byte", NULL, "1\n2\0003\n", PARSER_NUMBER, NULL, -EINVAL, 2, 2, "not a number" },
	{ "bad better", NULL, "# better: sideways\n1\n", PARSER_NUMBER, NULL, -EINVAL, 1, 11, "lower or higher" },
	{ "comments only", NULL, "# nothing\n", PARSER_NUMBER, NULL, -EINVAL, 0, 0, "no numbers" },
	/* json */
	{ "no selector", NULL, "{}", PARSER_JSON, NULL, -EINVAL, 0, 0, "needs a selector" },
	{ "bad selector", NULL, "{}", PARSER_JSON, ".a[", -EINVAL, 0, 0, "at character 3" },
	{ "empty key", NULL, "{}", PARSER_JSON, "a..b", -EINVAL, 0, 0, "empty key" },
	{ "bad index", NULL, "{}", PARSER_JSON, ".a[x]", -EINVAL, 0, 0, "array index" },
	{ "missing key", "hyperfine/two-commands.json", NULL, PARSER_JSON, ".results[0].nope", -EINVAL,
	  1, 1, ".results[0] has no key 'nope'" },
	{ "index out of range", "hyperfine/two-commands.json", NULL, PARSER_JSON, ".results[5].mean",
	  -EINVAL, 1, 1, ".results has 2 elements" },
	{ "not a number", "fio/randread.json", NULL, PARSER_JSON, ".[\"fio version\"]", -EINVAL, 1, 1,
	  "finds a string, not a number" },
	{ "second document", NULL, "{\"a\": 1}\n\n{\"b\": 1}\n", PARSER_JSON, ".a", -EINVAL, 3, 1,
	  "the document has no key 'a'" },
	{ "JSON syntax", NULL, "{\"a\": 1}\n{\"a\": 2,,}\n", PARSER_JSON, ".a", -EINVAL, 2, 9, "invalid JSON" },
	{ "real overflow", NULL, "{\n\"a\": 1e400}", PARSER_JSON, ".a", -EINVAL, 2, 10, "overflow" },
	{ "no document", NULL, "  \n", PARSER_JSON, ".a", -EINVAL, 0, 0, "empty file" },
	/* llama-bench */
	{ "cut in first result", "llama-bench/killed-first.json", NULL, PARSER_AUTO, NULL, -EINVAL,
	  41, 19, "ends inside its first result" },
	{ "cut after '['", NULL, "[\n", PARSER_LLAMA_BENCH, NULL, -EINVAL, 2, 1, "ends inside its first result" },
	{ "no model_type", NULL, "{\"n_prompt\": 1, \"n_gen\": 0, \"avg_ts\": 1}", PARSER_AUTO, NULL,
	  -EINVAL, 1, 1, "without model_type" },
	{ "no test shape", NULL, "{\"model_type\": \"m\", \"n_prompt\": 0, \"n_gen\": 0}\n",
	  PARSER_LLAMA_BENCH, NULL, -EINVAL, 1, 1, "n_prompt and n_gen both 0" },
	{ "no speeds", NULL, "{\"model_type\": \"m\", \"n_prompt\": 0, \"n_gen\": 4}\n"
	  "  {\"model_type\": \"m\", \"n_prompt\": 0, \"n_gen\": 4, \"samples_ts\": [1, -2]}",
	  PARSER_LLAMA_BENCH, NULL, -EINVAL, 1, 1, "neither samples_ts nor avg_ts" },
	{ "negative sample, second line", NULL, "{\"model_type\": \"m\", \"n_prompt\": 0, \"n_gen\": 4, "
	  "\"avg_ts\": 3}\n  {\"model_type\": \"m\", \"n_prompt\": 0, \"n_gen\": 4, \"samples_ts\": [1, -2]}",
	  PARSER_LLAMA_BENCH, NULL, -EINVAL, 2, 3, "samples_ts[1] of the tg4 result is a number, not a speed" },
	{ "string sample", NULL, "{\"model_type\": \"m\", \"n_prompt\": 8, \"n_gen\": 0, "
	  "\"samples_ts\": [\"1\"]}", PARSER_LLAMA_BENCH, NULL, -EINVAL, 1, 1, "samples_ts[0] of the pp8 result is a string" },
	{ "shape not a count", NULL, "{\"model_type\": \"m\", \"n_prompt\": -8, \"n_gen\": 0, \"avg_ts\": 1}",
	  PARSER_LLAMA_BENCH, NULL, -EINVAL, 1, 1, "counts of tokens" },
	{ "array of numbers", NULL, "[1, 2]", PARSER_LLAMA_BENCH, NULL, -EINVAL, 1, 2,
	  "expected a llama-bench result object in the array" },
	{ "junk between results", NULL, "[{\"model_type\": \"m\", \"n_prompt\": 8, \"n_gen\": 0, "
	  "\"avg_ts\": 1} x]", PARSER_LLAMA_BENCH, NULL, -EINVAL, 1, 62, "expected ',' or ']'" },
	{ "text", NULL, "pp512 100\n", PARSER_LLAMA_BENCH, NULL, -EINVAL, 1, 1, "expected a llama-bench result" },
	{ "bad JSON inside", NULL, "{\"model_type\": \"m\", \"n_prompt\": 8, \"n_gen\": 0, \"avg_ts\": 1}\n"
	  "{\"model_type\": \"m\" \"n_prompt\": 8}\n", PARSER_LLAMA_BENCH, NULL, -EINVAL, 2, 29, "invalid JSON" },
	/* fio */
	{ "job error", "fio/job-error.json", NULL, PARSER_AUTO, NULL, -EINVAL, 3, 1,
	  "fio job 'eio' (jobs[0]) failed with error 2" },
	{ "no jobs", NULL, "{\"fio version\": \"fio-3.33\", \"jobs\": []}", PARSER_FIO, NULL, -EINVAL,
	  1, 1, "no jobs" },
	{ "not fio", NULL, "{\"results\": []}", PARSER_FIO, NULL, -EINVAL, 1, 1, "not fio" },
	{ "only text", NULL, "fio: no such file\n", PARSER_FIO, NULL, -EINVAL, 0, 0, "no fio JSON" },
	{ "no I/O", NULL, "\n{\"fio version\": \"x\", \"jobs\": [{\"jobname\": \"j\", \"error\": 0, "
	  "\"read\": {\"io_bytes\": 0, \"total_ios\": 0}}]}", PARSER_FIO, NULL, -EINVAL, 2, 1, "did no I/O" },
	{ "negative iops", NULL, "{\"fio version\": \"x\", \"jobs\": [{\"jobname\": \"j\", \"error\": 0, "
	  "\"read\": {\"io_bytes\": 4096, \"iops\": -1, \"bw\": 4}}]}", PARSER_FIO, NULL, -EINVAL, 1, 1,
	  "fio jobs[0].read.iops is -1, not a number >= 0" },
	/* One key twice in one llama-bench result: which value is the result? */
	{ "llama-bench key twice", NULL, "[{\"model_type\": \"m\", \"n_prompt\": 512, \"n_gen\": 0, \"avg_ts\": 1, "
	  "\"samples_ts\": [1, 2], \"samples_ts\": [3, 4]}]", PARSER_LLAMA_BENCH, NULL, -EINVAL, 1, 97, "duplicate object key" },
	{ "missing clat", NULL, "{\"fio version\": \"x\", \"jobs\": [{\"jobname\": \"j\", \"error\": 0, "
	  "\"write\": {\"total_ios\": 1, \"iops\": 1, \"bw\": 4}}]}", PARSER_FIO, NULL, -EINVAL, 1, 1,
	  "fio jobs[0].write.clat_ns.mean is missing" },
	{ "no jobname", NULL, "{\"fio version\": \"x\", \"jobs\": [{\"error\": 0}]}", PARSER_FIO, NULL,
	  -EINVAL, 1, 1, "jobs[0] has no jobname" },
	/* dma_map_benchmark */
	{ "map, no unmap", NULL, "average map latency(us):1.0 standard deviation:0.3\n", PARSER_AUTO, NULL,
	  -EINVAL, 1, 1, "ends after a map latency, without its unmap latency" },
	{ "unmap first", NULL, "average unmap latency(us):1.0 standard deviation:0.3\n",
	  PARSER_DMA_MAP_BENCHMARK, NULL, -EINVAL, 1, 1, "an unmap latency without a map latency" },
	{ "latency not a number", NULL, "average map latency(us):x.4 standard deviation:0.3\n",
	  PARSER_AUTO, NULL, -EINVAL, 1, 25, "average map latency 'x.4' is not a number of microseconds" },
	{ "no standard deviation", NULL, "average map latency(us):1.4 stddev:0.3\n", PARSER_AUTO, NULL,
	  -EINVAL, 1, 29, "expected 'standard deviation:'" },
	{ "negative deviation", NULL, "dma mapping benchmark: threads:1\naverage map latency(us):1.4 "
	  "standard deviation:0.1\naverage unmap latency(us):1.4 standard deviation:-0.3\n", PARSER_AUTO, NULL,
	  -EINVAL, 3, 50, "unmap standard deviation '-0.3'" },
	{ "two configurations", NULL, "dma mapping benchmark: threads:1 seconds:20\naverage map latency(us):1.0 "
	  "standard deviation:0.3\naverage unmap latency(us):1.0 standard deviation:0.3\n"
	  "dma mapping benchmark: threads:8 seconds:20\n", PARSER_AUTO, NULL, -EINVAL, 4, 1,
	  "'dma mapping benchmark: threads:8 seconds...' differs from the first run's (line 1)" },
	{ "a line it does not print", NULL, "dma mapping benchmark: threads:1 seconds:20\n"
	  "open: No such file or directory\n", PARSER_AUTO, NULL, -EINVAL, 2, 1,
	  "'open: No such file or directory' is not a line dma_map_benchmark prints" },
	{ "header only", NULL, "dma mapping benchmark: threads:1 seconds:20\n", PARSER_AUTO, NULL, -EINVAL, 0, 0,
	  "no dma_map_benchmark result" },
	{ "two maps", NULL, "average map latency(us):1.0 standard deviation:0.3\n"
	  "average map latency(us):1.0 standard deviation:0.3\n", PARSER_AUTO, NULL, -EINVAL, 2, 1,
	  "a second map latency before the unmap latency of the run at line 1" },
	/* new,old table */
	{ "short row", NULL, "pgsz ,avg new,old ns, min new,old ns , min %\n2^12, 331,249 , 289\n", PARSER_AUTO,
	  NULL, -EINVAL, 2, 1, "a row has 4 fields" },
	{ "word in a row", NULL, "pgsz ,avg new,old ns, min new,old ns , min %\n2^12, 331,abc , 289,214 , 1\n",
	  PARSER_AUTO, NULL, -EINVAL, 2, 11, "avg old 'abc' is not a time" },
	{ "negative time", NULL, "pgsz ,avg new,old ns, min new,old ns , min %\n2^12, -331,249 , 289,214 , 1\n",
	  PARSER_NEW_OLD_TABLE, NULL, -EINVAL, 2, 7, "avg new '-331' is not a time" },
	{ "percent not a number", NULL, "pgsz ,avg new,old ns, min new,old ns , min %\n"
	  "2^12, 331,249 , 289,214 , x\n", PARSER_AUTO, NULL, -EINVAL, 2, 27, "min % 'x' is not a number" },
	{ "junk after the percent", NULL, "pgsz ,avg new,old ns, min new,old ns , min %\n"
	  "2^12, 331,249 , 289,214 , -35.35 AMD\n", PARSER_AUTO, NULL, -EINVAL, 2, 34, "expected '(NAME)'" },
	{ "header, no rows", NULL, "map\npgsz ,avg new,old ns, min new,old ns , min %\n\nthe end\n", PARSER_AUTO,
	  NULL, -EINVAL, 0, 0, "no table rows" },
	/* KTAP */
	{ "no version line", NULL, "ok 1 foo\n", PARSER_KTAP, NULL, -EINVAL, 0, 0, "no KTAP or TAP version line" },
	{ "result without a number", NULL, "KTAP version 1\n1..2\nok x foo\n", PARSER_AUTO, NULL, -EINVAL, 3, 4,
	  "expected the test's number after 'ok'" },
	{ "numbers out of order", NULL, "KTAP version 1\n1..2\nok 1 a\n# x\nnot ok 3 c\n", PARSER_AUTO, NULL,
	  -EINVAL, 5, 1, "test number 3 where 2 was expected" },
	{ "beyond the plan", NULL, "TAP version 13\n1..1\nok 1 a\nok 2 b\n", PARSER_AUTO, NULL, -EINVAL, 4, 1,
	  "test 2 is beyond the plan 1..1 of line 2" },
	{ "bad plan", NULL, "KTAP version 1\n1..x\n", PARSER_AUTO, NULL, -EINVAL, 2, 4, "a plan line is '1..N'" },
	{ "two plans", NULL, "KTAP version 1\n1..1\n1..1\n", PARSER_AUTO, NULL, -EINVAL, 3, 1,
	  "a second plan for the same tests (the first is on line 2)" },
	{ "subtest number out of order", NULL, "KTAP version 1\n1..1\n  KTAP version 1\n  1..2\n  ok 2 b\n",
	  PARSER_AUTO, NULL, -EINVAL, 5, 3, "test number 2 where 1 was expected" },
	/* hyperfine */
	{ "no results", NULL, "{\"results\": []}", PARSER_HYPERFINE, NULL, -EINVAL, 1, 1, "no \"results\" list" },
	{ "no times", NULL, "{\"results\": [{\"command\": \"c\", \"mean\": 1}]}", PARSER_HYPERFINE, NULL,
	  -EINVAL, 1, 1, "('c') has no \"times\" list" },
	{ "negative time", NULL, "{\"results\": [{\"command\": \"c\", \"times\": [1, -1]}]}",
	  PARSER_HYPERFINE, NULL, -EINVAL, 1, 1, "results[0].times[1] ('c') is a number, not a time >= 0" },
	{ "no command", NULL, "{\"results\": [{\"times\": [1]}]}", PARSER_AUTO, NULL, -EINVAL, 1, 1,
	  "results[0] has no command" },
	{ "cut hyperfine", NULL, "{\"results\": [{\"command\": \"c\", \"times\": [1", PARSER_HYPERFINE, NULL,
	  -EINVAL, 1, 41, "invalid JSON" },
	/* --export-json /dev/stdout into a file: the human text lands inside the JSON. */
	{ "hyperfine text in its JSON", "hyperfine/stdout-file.txt", NULL, PARSER_AUTO, NULL, -EINVAL, 13, 19,
	  "(hyperfine's human text written over its JSON: run it with --style none)" },
	/* Text before JSON that is not hyperfine's is not skipped. */
	{ "other text before hyperfine JSON", NULL, "Results:\n{\"results\": [{\"command\": \"c\", \"times\": [1]}]}\n",
	  PARSER_HYPERFINE, NULL, -EINVAL, 1, 7, "invalid JSON" },
};

static char *fixture_path(const char *name)
{
	return xasprintf("%s/parsers/%s", FIXTURES, name);
}

static char *fixture_read(const char *name, size_t *ret_len)
{
	char *path = fixture_path(name), *data = NULL;

	assert_int_equal(file_read(path, FILE_READ_MAX, &data, ret_len), 0);
	free(path);
	return data;
}

static void check_metric(const struct metric_set *set, const struct expected_metric *want)
{
	const struct metric *m = metric_set_find(set, want->name);

	if (!m)
		fail_msg("no metric '%s'", want->name);
	assert_int_equal(m->better, want->better);
	assert_string_equal(m->unit, want->unit);
	assert_int_equal(m->n_samples, want->n);
	for (size_t i = 0; i < want->n; i++)
		if (m->samples[i] != want->samples[i])
			fail_msg("%s sample %zu: %.17g, expected %.17g", want->name, i, m->samples[i],
				 want->samples[i]);
}

static void test_fixtures(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(parse_cases) / sizeof(parse_cases[0]); c++) {
		const struct parse_case *pc = &parse_cases[c];
		struct parse_error err = PARSE_ERROR_INIT, warning = PARSE_ERROR_INIT;
		struct metric_set set = METRIC_SET_INIT;
		size_t len;
		char *data = fixture_read(pc->file, &len);
		int r;

		print_message("%s %s %s\n", pc->file, parser_kind_name(pc->kind),
			      pc->selector ? pc->selector : "");
		assert_int_equal(parser_detect(data, len), pc->detected);
		r = parser_parse(pc->kind, pc->selector, data, len, &set, &err, &warning);
		if (r < 0)
			fail_msg("%s: %s", pc->file, err.message);
		assert_int_equal(set.n_metrics, pc->n_metrics);
		for (size_t i = 0; i < pc->n_metrics; i++) {
			/* first-seen order */
			assert_string_equal(set.metrics[i].name, pc->metrics[i].name);
			check_metric(&set, &pc->metrics[i]);
		}
		if (pc->warning) {
			assert_non_null(warning.message);
			assert_non_null(strstr(warning.message, pc->warning));
			assert_int_equal(warning.line, pc->warning_line);
		} else {
			assert_null(warning.message);
		}
		assert_null(err.message);
		metric_set_release(&set);
		parse_error_release(&warning);
		free(data);
	}
}

static void test_texts(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(text_cases) / sizeof(text_cases[0]); c++) {
		const struct text_case *tc = &text_cases[c];
		struct parse_error err = PARSE_ERROR_INIT;
		struct metric_set set = METRIC_SET_INIT;
		size_t len = strlen(tc->data);
		int r;

		print_message("%s\n", tc->what);
		assert_int_equal(parser_detect(tc->data, len), tc->detected);
		r = parser_parse(tc->kind, tc->selector, tc->data, len, &set, &err, NULL);
		if (r < 0)
			fail_msg("%s: %s", tc->what, err.message);
		check_metric(&set, &tc->metric);
		metric_set_release(&set);
	}
}

static void test_errors(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(error_cases) / sizeof(error_cases[0]); c++) {
		const struct error_case *ec = &error_cases[c];
		struct parse_error err = PARSE_ERROR_INIT, warning = PARSE_ERROR_INIT;
		struct metric_set set = METRIC_SET_INIT;
		size_t len;
		char *data;
		int r;

		print_message("%s\n", ec->what);
		if (ec->file) {
			data = fixture_read(ec->file, &len);
		} else {
			/* the one case with a NUL byte inside */
			len = strlen(ec->data);
			if (!strcmp(ec->what, "NUL byte"))
				len = 6;
			data = xmalloc(len + 1);
			memcpy(data, ec->data, len);
			data[len] = '\0';
		}
		parse_error_set_file(&err, "row.out");
		metric_set_add_sample(&set, "existing", BETTER_LOWER, "s", 1.5);
		r = parser_parse(ec->kind, ec->selector, data, len, &set, &err, &warning);
		assert_int_equal(r, ec->rc);
		if (!err.message || !strstr(err.message, ec->message))
			fail_msg("%s: message '%s', expected a part '%s'", ec->what, err.message, ec->message);
		if (err.line != ec->line || err.column != ec->column)
			fail_msg("%s: at %u:%u, expected %u:%u (%s)", ec->what, err.line, err.column,
				 ec->line, ec->column, err.message);
		assert_string_equal(err.file, "row.out");
		/* the set is exactly as it was, and no warning came out */
		assert_int_equal(set.n_metrics, 1);
		assert_string_equal(set.metrics[0].name, "existing");
		assert_int_equal(set.metrics[0].n_samples, 1);
		assert_true(set.metrics[0].samples[0] == 1.5);
		assert_null(warning.message);
		metric_set_release(&set);
		parse_error_release(&err);
		free(data);
	}
}

/* A llama-bench -o json run killed right after a complete result, before "," or "]". */
static void test_llama_bench_cut_between_results(void **state)
{
	struct parse_error err = PARSE_ERROR_INIT, warning = PARSE_ERROR_INIT;
	struct metric_set set = METRIC_SET_INIT;
	const char *second_end;
	size_t len;
	char *data = fixture_read("llama-bench/two-models.json", &len);

	(void)state;
	/* two-models.json: gpt-oss pp512, gpt-oss tg128, qwen pp512, ... */
	second_end = strstr(strstr(data, "\"n_gen\": 128"), "\n  }") + 4;
	for (size_t cut = (size_t)(second_end - data); cut <= (size_t)(second_end - data) + 2; cut++) {
		char *part = xstrndup(data, cut);

		assert_int_equal(parser_detect(part, cut), PARSER_LLAMA_BENCH);
		assert_int_equal(parser_parse(PARSER_AUTO, NULL, part, cut, &set, &err, &warning), 0);
		/* one model left in the file: names are the test alone */
		assert_int_equal(set.n_metrics, 2);
		assert_string_equal(set.metrics[0].name, "pp512");
		assert_string_equal(set.metrics[1].name, "tg128");
		assert_true(set.metrics[1].samples[4] == 52.4293);
		assert_non_null(strstr(warning.message, "cut off after 2 complete results"));
		metric_set_release(&set);
		parse_error_release(&warning);
		free(part);
	}
	free(data);
}

/* A -o jsonl run killed in the middle of a line: the complete lines count. */
static void test_llama_bench_cut_jsonl(void **state)
{
	struct parse_error err = PARSE_ERROR_INIT, warning = PARSE_ERROR_INIT;
	struct metric_set set = METRIC_SET_INIT;
	size_t len, cut;
	char *data = fixture_read("llama-bench/gptoss-vulkan-depths.jsonl", &len);
	const char *third = strchr(strchr(data, '\n') + 1, '\n') + 1;

	(void)state;
	cut = (size_t)(strstr(third, "\"samples_ts\": [ 345.3") - data) + 17;
	data[cut] = '\0';
	assert_int_equal(parser_parse(PARSER_AUTO, NULL, data, cut, &set, &err, &warning), 0);
	assert_int_equal(set.n_metrics, 2);
	assert_string_equal(set.metrics[0].name, "pp512");
	assert_string_equal(set.metrics[1].name, "tg128");
	assert_int_equal(warning.line, 3);
	assert_non_null(strstr(warning.message, "cut off after 2 complete results"));
	metric_set_release(&set);
	parse_error_release(&warning);

	/* the same cut in the first line leaves nothing */
	cut = (size_t)(strstr(data, "\"samples_ts\"") - data);
	data[cut] = '\0';
	metric_set_add_sample(&set, "existing", BETTER_HIGHER, "", 1);
	assert_int_equal(parser_parse(PARSER_AUTO, NULL, data, cut, &set, &err, &warning), -EINVAL);
	assert_non_null(strstr(err.message, "ends inside its first result"));
	assert_int_equal(err.line, 1);
	assert_int_equal(set.n_metrics, 1);
	assert_null(warning.message);
	metric_set_release(&set);
	parse_error_release(&err);
	free(data);
}

/* Reps appended to one file, and parsed into a set that already has samples. */
static void test_appends(void **state)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct metric_set set = METRIC_SET_INIT;
	size_t len1, len3;
	char *one = fixture_read("fio/randread.json", &len1);
	char *three = fixture_read("fio/randread-3reps.json", &len3);
	char *jsonl = fixture_read("llama-bench/gptoss-vulkan-depths.jsonl", &len1);
	char *twice = xasprintf("%s%s", jsonl, jsonl);
	const struct metric *m;

	(void)state;
	assert_int_equal(parser_parse(PARSER_AUTO, NULL, one, strlen(one), &set, &err, NULL), 0);
	assert_int_equal(parser_parse(PARSER_FIO, NULL, three, len3, &set, &err, NULL), 0);
	m = metric_set_find(&set, "randread.iops");
	assert_non_null(m);
	assert_int_equal(m->n_samples, 4);
	assert_true(m->samples[0] == 32909.090909);
	assert_true(m->samples[3] == 31868.131868);
	metric_set_release(&set);

	assert_int_equal(parser_parse(PARSER_AUTO, NULL, twice, strlen(twice), &set, &err, NULL), 0);
	assert_int_equal(set.n_metrics, 6);
	m = metric_set_find(&set, "pp512 @ d65536");
	assert_non_null(m);
	assert_int_equal(m->n_samples, 10);
	assert_true(m->samples[5] == 214.805);
	metric_set_release(&set);
	free(one);
	free(three);
	free(jsonl);
	free(twice);
}

/* jansson stops at its depth limit; nothing recurses without bound. */
static void test_deep_nesting(void **state)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct metric_set set = METRIC_SET_INIT;
	size_t n = 100000;
	char *data = xmalloc(n + 1);

	(void)state;
	memset(data, '[', n);
	data[n] = '\0';
	assert_int_equal(parser_detect(data, n), PARSER_AUTO);
	assert_int_equal(parser_parse(PARSER_JSON, ".[0]", data, n, &set, &err, NULL), -EINVAL);
	assert_non_null(strstr(err.message, "depth"));
	assert_int_equal(err.line, 1);
	memset(data, '{', 1);
	assert_int_equal(parser_parse(PARSER_LLAMA_BENCH, NULL, data, n, &set, &err, NULL), -EINVAL);
	assert_int_equal(set.n_metrics, 0);
	parse_error_release(&err);
	free(data);
}

/* KTAP: checks, not metrics; failures named by their path. */
struct ktap_case {
	const char *file;
	size_t passed, failed, skipped, xfail;
	const char *failures[8];
};

static const struct ktap_case ktap_cases[] = {
	{ "ktap/spec-example.txt", 3, 1, 2, 0, { "main_test.example_test_3.test_2" } },
	{ "ktap/kunit-dmesg.txt", 3, 1, 1, 0, { "list-kernel-test.list_test_list_del" } },
	{ "ktap/tap14-subtest.txt", 3, 1, 0, 1, { "kunit-resource-test.kunit_resource_test_destroy_resource" } },
	{ "ktap/crashed.txt", 2, 3, 0, 0, {
		"iommu_pt_x86_64.(tests 3-4 of 1..4 did not report)",
		"iommu_pt_x86_64.(no result line after these subtests)",
		"(tests 1-2 of 1..2 did not report)" } },
	{ "ktap/kselftest.txt", 1, 1, 1, 0, { "selftests: dma: dma_map_benchmark" } },
	/* Captured from kselftests of Linux 6.1.192 run on a 6.18 kernel (README.md). */
	{ "ktap/kselftest-mincore.txt", 4, 0, 1, 0, { NULL } },
	{ "ktap/kselftest-membarrier.txt", 13, 0, 0, 0, { NULL } },
	{ "ktap/kselftest-openat2-bail-out.txt", 0, 2, 0, 0, { "(bail out)", "(tests 1-88 of 1..88 did not report)" } },
};

static void test_ktap(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(ktap_cases) / sizeof(ktap_cases[0]); c++) {
		const struct ktap_case *kc = &ktap_cases[c];
		struct parse_error err = PARSE_ERROR_INIT;
		struct metric_set set = METRIC_SET_INIT;
		size_t len, n_failures = 0;
		char *data = fixture_read(kc->file, &len);

		print_message("%s\n", kc->file);
		assert_int_equal(parser_detect(data, len), PARSER_KTAP);
		if (parser_parse(PARSER_AUTO, NULL, data, len, &set, &err, NULL) < 0)
			fail_msg("%s: %u:%u: %s", kc->file, err.line, err.column, err.message);
		assert_true(set.has_checks);
		assert_int_equal(set.n_metrics, 0);
		for (size_t i = 0; i < set.n_failed; i++)
			print_message("  failed: %s\n", set.failed[i]);
		assert_int_equal(set.checks[CHECK_PASSED], kc->passed);
		assert_int_equal(set.checks[CHECK_FAILED], kc->failed);
		assert_int_equal(set.checks[CHECK_SKIPPED], kc->skipped);
		assert_int_equal(set.checks[CHECK_XFAIL], kc->xfail);
		while (n_failures < 8 && kc->failures[n_failures])
			n_failures++;
		assert_int_equal(set.n_failed, n_failures);
		for (size_t i = 0; i < n_failures; i++)
			assert_string_equal(set.failed[i], kc->failures[i]);
		/* A second run appended to the file doubles every count. */
		{
			char *twice = xasprintf("%s%s", data, data);
			struct metric_set two = METRIC_SET_INIT;

			assert_int_equal(parser_parse(PARSER_KTAP, NULL, twice, strlen(twice), &two, &err, NULL), 0);
			for (size_t o = 0; o < CHECK_OUTCOMES; o++)
				assert_int_equal(two.checks[o], 2 * set.checks[o]);
			assert_int_equal(two.n_failed, 2 * set.n_failed);
			metric_set_release(&two);
			free(twice);
		}
		metric_set_release(&set);
		free(data);
	}
}

/*
 * Nesting has no bound: 40 levels (the parser once refused a 33rd and
 * dropped the file) keep the leaf's failure, named by its path cut at
 * 200 bytes, and a passing sibling at the root still counts.
 */
static void test_ktap_depth(void **state)
{
	const int depth = 40;
	struct strbuf sb = STRBUF_INIT;
	struct parse_error err = PARSE_ERROR_INIT;
	struct metric_set set = METRIC_SET_INIT;

	(void)state;
	strbuf_addf(&sb, "KTAP version 1\n1..2\n");
	for (int i = 1; i < depth; i++)
		strbuf_addf(&sb, "%*sKTAP version 1\n%*s# Subtest: nested_suite_%d\n%*s1..1\n", 2 * i, "", 2 * i, "", i, 2 * i,
			    "");
	strbuf_addf(&sb, "%*snot ok 1 leaf\n", 2 * depth, "");
	for (int i = depth - 1; i >= 1; i--)
		strbuf_addf(&sb, "%*snot ok 1 nested_suite_%d\n", 2 * (i - 1), "", i);
	strbuf_addf(&sb, "ok 2 sibling\n");
	assert_int_equal(parser_parse(PARSER_KTAP, NULL, sb.buf, sb.len, &set, &err, NULL), 0);
	assert_true(set.has_checks);
	assert_int_equal(set.checks[CHECK_PASSED], 1);
	assert_int_equal(set.checks[CHECK_FAILED], 1);
	assert_int_equal(set.n_failed, 1);
	assert_int_equal(strncmp(set.failed[0], "nested_suite_1.nested_suite_2.", 30), 0);
	assert_int_equal(strlen(set.failed[0]), 200);
	assert_string_equal(set.failed[0] + 197, "...");
	metric_set_release(&set);
	parse_error_release(&err);
	strbuf_release(&sb);
}

/* parser = regex: one sample per matching line, the group's number. */
static void test_regex(void **state)
{
	static const struct {
		const char *pattern;
		const char *data;
		int rc;
		size_t n;
		double samples[4];
		unsigned line, column;
		const char *message;
	} cases[] = {
		{ "^average map latency\\(us\\):([0-9.]+)", "dma mapping benchmark: threads:1\n"
		  "average map latency(us):1.4 standard deviation:0.3\naverage unmap latency(us):1.3 standard "
		  "deviation:0.3\naverage map latency(us):1.5 standard deviation:0.3\n", 0, 2, { 1.4, 1.5 } },
		{ "took ( *[0-9]+) ms", "run 1 took   12 ms\nrun 2 took 13 ms, warm\nnothing here\n", 0, 2, { 12, 13 } },
		{ "rate=([^ ]*)", "rate=1e3\r\nrate=-2.5\n", 0, 2, { 1000, -2.5 } },
		{ "rate=([^ ]*)", "x\nrate=12abc ok\n", -EINVAL, 0, { 0 }, 2, 6,
		  "the pattern's group matched '12abc', not a number" },
		{ "rate=([^ ]*)", "rate=\n", -EINVAL, 0, { 0 }, 1, 6, "matched '', not a number" },
		{ "rate=([0-9]+)", "no rate\n", -EINVAL, 0, { 0 }, 0, 0, "no line matches the pattern 'rate=([0-9]+)'" },
		{ "(a)(b)", "ab\n", -EINVAL, 0, { 0 }, 0, 0, "the pattern has 2 groups; it needs exactly one" },
		{ "rate=[0-9]+", "rate=1\n", -EINVAL, 0, { 0 }, 0, 0, "has 0 groups" },
		{ "rate=([0-9]+", "rate=1\n", -EINVAL, 0, { 0 }, 0, 0, "not a POSIX extended regular expression" },
		{ "", "1\n", -EINVAL, 0, { 0 }, 0, 0, "the pattern is empty" },
		{ "((a{255}){255}){255}([0-9])", "1\n", -EINVAL, 0, { 0 }, 0, 0, "repeats ('+', {m,n}) copy it more than 100000" },
		{ "(%*)x++++++++++++++++++++++++++++++++", "1\n", -EINVAL, 0, { 0 }, 0, 0, "copy it more than" },
		{ "^([0-9]+) [a-z]+ [a-z]+ [a-z]+ [a-z]+ [a-z]+ [a-z]+ [a-z]+ [a-z]+ [a-z]+ [a-z]+ [a-z]+ [a-z]+ [a-z]+ [a-z]+ [a-z]+ "
		  "[a-z]+ [a-z]+ [a-z]+ [a-z]+ [a-z]+ [a-z]+ [a-z]+ [a-z]+ [a-z]+ end$",
		  "7 a b c d e f g h i j k l m n o p q r s t u v w x end\n", 0, 1, { 7 } },
		{ "^x{2}[{]([0-9]{1,3})", "xx{12\n", 0, 1, { 12 } },
	};

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct parser_regex spec = { "latency", cases[c].pattern, "us", BETTER_LOWER };
		struct parse_error err = PARSE_ERROR_INIT;
		struct metric_set set = METRIC_SET_INIT;
		char *error = NULL;
		int r;

		print_message("%s\n", cases[c].pattern);
		metric_set_add_sample(&set, "existing", BETTER_HIGHER, "", 7);
		r = parser_parse_regex(&spec, cases[c].data, strlen(cases[c].data), &set, &err, NULL);
		assert_int_equal(r, cases[c].rc);
		if (r < 0) {
			if (!strstr(err.message, cases[c].message))
				fail_msg("message '%s', expected a part '%s'", err.message, cases[c].message);
			assert_int_equal(err.line, cases[c].line);
			assert_int_equal(err.column, cases[c].column);
			assert_int_equal(set.n_metrics, 1);
			/* the same pattern check the plan runs */
			if (cases[c].line == 0 && strncmp(cases[c].message, "no line", 7)) {
				assert_int_equal(parser_regex_check(cases[c].pattern, &error), -EINVAL);
				assert_non_null(strstr(error, cases[c].message));
				free(error);
			}
		} else {
			const struct metric *m = metric_set_find(&set, "latency");

			assert_null(err.message);
			assert_int_equal(parser_regex_check(cases[c].pattern, &error), 0);
			assert_non_null(m);
			assert_int_equal(m->better, BETTER_LOWER);
			assert_string_equal(m->unit, "us");
			assert_int_equal(m->n_samples, cases[c].n);
			for (size_t i = 0; i < cases[c].n; i++)
				assert_true(m->samples[i] == cases[c].samples[i]);
		}
		metric_set_release(&set);
		parse_error_release(&err);
	}
}

static void test_kind_names(void **state)
{
	static const struct {
		const char *spec;
		int rc;
		enum parser_kind kind;
		const char *selector;
	} specs[] = {
		{ "auto", 0, PARSER_AUTO, NULL },
		{ "llama-bench", 0, PARSER_LLAMA_BENCH, NULL },
		{ "fio", 0, PARSER_FIO, NULL },
		{ "hyperfine", 0, PARSER_HYPERFINE, NULL },
		{ "number", 0, PARSER_NUMBER, NULL },
		{ "json .results[0].mean", 0, PARSER_JSON, ".results[0].mean" },
		{ "json \t results.0.mean  ", 0, PARSER_JSON, "results.0.mean" },
		{ "json", -EINVAL, 0, NULL },
		{ "json .a[", -EINVAL, 0, NULL },
		{ "fio .x", -EINVAL, 0, NULL },
		{ "Fio", -EINVAL, 0, NULL },
		{ "llama", -EINVAL, 0, NULL },
		{ "", -EINVAL, 0, NULL },
	};
	enum parser_kind kind = PARSER_NUMBER;

	(void)state;
	for (int k = PARSER_AUTO; k <= PARSER_REGEX; k++) {
		const char *name = parser_kind_name((enum parser_kind)k);

		assert_non_null(name);
		assert_int_equal(parser_kind_from_name(name, &kind), 0);
		assert_int_equal(kind, k);
	}
	assert_null(parser_kind_name((enum parser_kind)99));
	kind = PARSER_NUMBER;
	assert_int_equal(parser_kind_from_name("llama_bench", &kind), -EINVAL);
	assert_int_equal(kind, PARSER_NUMBER);

	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		char *selector = (char *)"untouched";

		kind = PARSER_NUMBER;
		assert_int_equal(parser_spec_parse(specs[i].spec, &kind, &selector), specs[i].rc);
		if (specs[i].rc) {
			assert_int_equal(kind, PARSER_NUMBER);
			assert_string_equal(selector, "untouched");
			continue;
		}
		assert_int_equal(kind, specs[i].kind);
		if (specs[i].selector)
			assert_string_equal(selector, specs[i].selector);
		else
			assert_null(selector);
		free(selector);
	}
}

static void test_selector_check(void **state)
{
	static const struct {
		const char *selector;
		int rc;
	} selectors[] = {
		{ ".", 0 }, { ".a", 0 }, { "a", 0 }, { "a.b.0", 0 }, { ".a[0][-1].b", 0 },
		{ "[\"x y\"].z", 0 }, { ".[\"a.b\"]", 0 }, { "[2]", 0 },
		{ "", -EINVAL }, { "..", -EINVAL }, { ".a.", -EINVAL }, { "a[", -EINVAL },
		{ "a[]", -EINVAL }, { "a[1", -EINVAL }, { "a[\"b]", -EINVAL }, { "a[1]b", -EINVAL },
		{ "a[1x]", -EINVAL }, { "a[99999999999999999999]", -EINVAL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(selectors) / sizeof(selectors[0]); i++) {
		struct parse_error err = PARSE_ERROR_INIT;
		int r = parser_selector_check(selectors[i].selector, &err);

		if (r != selectors[i].rc)
			fail_msg("'%s': %d, expected %d", selectors[i].selector, r, selectors[i].rc);
		if (r)
			assert_non_null(err.message);
		parse_error_release(&err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_texts),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_llama_bench_cut_between_results),
		cmocka_unit_test(test_llama_bench_cut_jsonl),
		cmocka_unit_test(test_appends),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_kind_names),
		cmocka_unit_test(test_selector_check),
		cmocka_unit_test(test_ktap),
		cmocka_unit_test(test_ktap_depth),
		cmocka_unit_test(test_regex),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
