/*
 * The kernel's DMA map benchmark (tools/testing/selftests/dma/
 * dma_map_benchmark.c, driving kernel/dma/map_benchmark.c through
 * /sys/kernel/debug/dma_map_benchmark). Each run prints
 *
 *   dma mapping benchmark: threads:1 seconds:20 node:-1 dir:BIDIRECTIONAL granule: 1
 *   average map latency(us):1.4 standard deviation:0.3
 *   average unmap latency(us):1.3 standard deviation:0.3
 *
 * (a proposed scatter-gather mode adds a "dma mapping mode: ..." line
 * first). The latencies are the mean over every map and unmap of the run,
 * in microseconds with one decimal; the standard deviations are those of
 * the single operations, not of the mean, so they are not the run's
 * spread: each becomes a metric of its own ("map stddev"), lower is better
 * (a narrower latency distribution). Runs appended to one file are reps;
 * they must share one configuration line.
 */
#include "parsers/parser-internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"

#define HEADER "dma mapping benchmark:"
#define MODE "dma mapping mode:"
#define MAP "average map latency(us):"
#define UNMAP "average unmap latency(us):"
#define STDDEV "standard deviation:"

bool dma_map_benchmark_recognise(const char *data, size_t len)
{
	size_t pos = 0, begin, end;

	while (text_next_line(data, len, &pos, &begin, &end)) {
		text_trim(data, &begin, &end);
		if (begin == end)
			continue;
		return text_starts(data, begin, end, HEADER) || text_starts(data, begin, end, MODE) ||
		       text_starts(data, begin, end, MAP);
	}
	return false;
}

/* "1.4 standard deviation:0.3" from after the label: *ret_avg, *ret_sd. */
static int read_latency(const char *data, size_t begin, size_t end, const char *what,
			double *ret_avg, double *ret_sd, struct parse_error *err)
{
	size_t sd_label = begin, num_end;
	double avg, sd;

	while (sd_label < end && data[sd_label] != ' ' && data[sd_label] != '\t')
		sd_label++;
	num_end = sd_label;
	while (sd_label < end && (data[sd_label] == ' ' || data[sd_label] == '\t'))
		sd_label++;
	if (text_decimal(data, begin, num_end, &avg) < 0 || avg < 0) {
		char *q = text_quote(data, begin, num_end);

		parser_error_at(err, data, begin, "average %s latency '%s' is not a number of microseconds", what, q);
		free(q);
		return -EINVAL;
	}
	if (!text_starts(data, sd_label, end, STDDEV)) {
		parser_error_at(err, data, sd_label, "expected '" STDDEV "' after the average %s latency", what);
		return -EINVAL;
	}
	sd_label += strlen(STDDEV);
	if (text_decimal(data, sd_label, end, &sd) < 0 || sd < 0) {
		char *q = text_quote(data, sd_label, end);

		parser_error_at(err, data, sd_label, "%s standard deviation '%s' is not a number of microseconds",
				what, q);
		free(q);
		return -EINVAL;
	}
	*ret_avg = avg;
	*ret_sd = sd;
	return 0;
}

/*
 * A configuration line (the header, or the mode line) must be the same in
 * every run: *first is where the first one of its kind was.
 */
static int same_config(const char *data, size_t begin, size_t end, size_t *first_begin, size_t *first_end,
		       struct parse_error *err)
{
	unsigned line, column;
	char *q;

	if (*first_end == 0) {
		*first_begin = begin;
		*first_end = end;
		return 0;
	}
	if (end - begin == *first_end - *first_begin && !memcmp(data + begin, data + *first_begin, end - begin))
		return 0;
	q = text_quote(data, begin, end);
	text_position(data, *first_begin, &line, &column);
	parser_error_at(err, data, begin,
			"'%s' differs from the first run's (line %u): one file holds runs of one configuration", q, line);
	free(q);
	return -EINVAL;
}

int dma_map_benchmark_parse(const char *data, size_t len, struct metric_set *set,
			    struct parse_error *err, struct parse_error *warning)
{
	size_t pos = 0, begin, end, map_at = 0;
	size_t header_begin = 0, header_end = 0, mode_begin = 0, mode_end = 0;
	bool have_map = false;
	double map = 0, map_sd = 0;
	unsigned runs = 0;

	(void)warning;
	while (text_next_line(data, len, &pos, &begin, &end)) {
		text_trim(data, &begin, &end);
		if (begin == end)
			continue;
		if (text_starts(data, begin, end, HEADER) || text_starts(data, begin, end, MODE)) {
			bool mode = text_starts(data, begin, end, MODE);

			if (have_map) {
				parser_error_at(err, data, map_at, "a map latency without its unmap latency before the next run");
				return -EINVAL;
			}
			if (same_config(data, begin, end, mode ? &mode_begin : &header_begin, mode ? &mode_end : &header_end,
					err) < 0)
				return -EINVAL;
			continue;
		}
		if (text_starts(data, begin, end, MAP)) {
			if (have_map) {
				unsigned line, column;

				text_position(data, map_at, &line, &column);
				parser_error_at(err, data, begin,
						"a second map latency before the unmap latency of the run at line %u", line);
				return -EINVAL;
			}
			if (read_latency(data, begin + strlen(MAP), end, "map", &map, &map_sd, err) < 0)
				return -EINVAL;
			have_map = true;
			map_at = begin;
			continue;
		}
		if (text_starts(data, begin, end, UNMAP)) {
			double unmap, unmap_sd;

			if (!have_map) {
				parser_error_at(err, data, begin, "an unmap latency without a map latency before it");
				return -EINVAL;
			}
			if (read_latency(data, begin + strlen(UNMAP), end, "unmap", &unmap, &unmap_sd, err) < 0)
				return -EINVAL;
			metric_set_add_sample(set, "map latency", BETTER_LOWER, "us", map);
			metric_set_add_sample(set, "map stddev", BETTER_LOWER, "us", map_sd);
			metric_set_add_sample(set, "unmap latency", BETTER_LOWER, "us", unmap);
			metric_set_add_sample(set, "unmap stddev", BETTER_LOWER, "us", unmap_sd);
			have_map = false;
			runs++;
			continue;
		}
		{
			char *q = text_quote(data, begin, end);

			parser_error_at(err, data, begin,
					"'%s' is not a line dma_map_benchmark prints (its configuration, map or unmap latency)", q);
			free(q);
			return -EINVAL;
		}
	}
	if (have_map) {
		parser_error_at(err, data, map_at, "the output ends after a map latency, without its unmap latency");
		return -EINVAL;
	}
	if (!runs) {
		parse_error_set(err, 0, 0, "no dma_map_benchmark result (no 'average map latency(us):' line)");
		return -EINVAL;
	}
	return 0;
}
