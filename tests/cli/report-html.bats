#!/usr/bin/env bats
# report.html as a browser shows it: the recorded lab campaign (and the case
# study's four boots, which reach every verdict) rendered by headless
# Chromium. What is checked is read back from the rendered page: a small
# inline script, appended to a copy of the page, measures the charts and
# collects the verdicts into an element of the dumped DOM.

chromium_run() {
	# No network, no first-run or background services; a fresh profile per run.
	timeout 180 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --hide-scrollbars \
		--user-data-dir="$(mktemp -d "$BATS_FILE_TMPDIR/profile.XXXXXX")" "$@" 2>/dev/null
}

setup_file() {
	local why=""
	if ! command -v chromium >/dev/null; then
		why="chromium is not installed (apt-get install chromium)"
	elif ! chromium_run --dump-dom "data:text/html,<p id=ok>ok</p>" | grep -q 'id="ok"'; then
		why="chromium cannot start headless here"
	fi
	export CHROMIUM_SKIP="$why"
}

setup() {
	if [ -n "${CHROMIUM_SKIP-}" ]; then
		skip "$CHROMIUM_SKIP"
	fi
	fixture="$BATS_TEST_DIRNAME/../fixtures/campaign-lab"
	r2="$BATS_TEST_DIRNAME/../../examples/case-study/round2"
	camp="$BATS_TEST_TMPDIR/campaign"
	cp -r "$fixture" "$camp"
	rm -f "$camp"/report.*
}

# The probe: what the rendered page shows, as JSON in <pre id="bootab-check">.
# Non-ASCII and markup characters are written as \u escapes so the DOM dump
# carries the JSON unchanged.
probe_script() {
	cat <<'EOF'
<script>
(function () {
	var out = { charts: [], verdicts: [], summary: {}, spans: 0, spans_drawn: 0 };
	function shown(r) { return r.width > 0 && r.height > 0; }
	document.querySelectorAll('svg[data-metric]').forEach(function (s) {
		var r = s.getBoundingClientRect(), pts = s.querySelectorAll('circle.pt'), inside = 0;
		pts.forEach(function (c) {
			var b = c.getBoundingClientRect();
			if (shown(b) && b.left >= r.left - 1 && b.right <= r.right + 1 &&
			    b.top >= r.top - 1 && b.bottom <= r.bottom + 1)
				inside++;
		});
		out.charts.push({ metric: s.getAttribute('data-metric'), points: +s.getAttribute('data-points'),
			drawn: pts.length, inside: inside, width: Math.round(r.width), height: Math.round(r.height) });
	});
	document.querySelectorAll('[data-verdict]').forEach(function (e) {
		out.verdicts.push({ where: e.classList.contains('pill') ? 'chart' : 'table', row: e.dataset.row,
			metric: e.dataset.metric, side: e.dataset.side, verdict: e.dataset.verdict,
			text: e.textContent, shown: shown(e.getBoundingClientRect()) });
	});
	document.querySelectorAll('[data-summary]').forEach(function (e) {
		out.summary[e.dataset.summary] = parseInt(e.textContent, 10);
	});
	document.querySelectorAll('svg.timeline rect.span').forEach(function (e) {
		out.spans++;
		if (shown(e.getBoundingClientRect()))
			out.spans_drawn++;
	});
	out.height = Math.ceil(document.documentElement.scrollHeight);
	out.width = Math.ceil(document.documentElement.scrollWidth);
	out.viewport = window.innerWidth;
	var pre = document.createElement('pre');
	pre.id = 'bootab-check';
	pre.textContent = JSON.stringify(out).replace(/[<>&\u007f-\uffff]/g, function (c) {
		return '\\u' + ('000' + c.charCodeAt(0).toString(16)).slice(-4);
	});
	document.body.appendChild(pre);
})();
</script>
EOF
}

# probe PAGE WIDTH: renders PAGE WIDTH pixels wide and writes the probe's JSON to PAGE.WIDTH.json
probe() {
	local page=$1 width=$2
	{ cat "$page"; probe_script; } > "$page.probe.html"
	chromium_run --window-size="$width,1000" --dump-dom "file://$page.probe.html" > "$page.$width.dom" || return 1
	sed -n 's:.*<pre id="bootab-check">\(.*\)</pre>.*:\1:p' "$page.$width.dom" > "$page.$width.json"
	jq -e 'type == "object"' "$page.$width.json" > /dev/null
}

# expect_page PAGE.json REPORT.json: the rendered page agrees with report.json
# (each check returns on failure, so it also fails under `run`).
expect_page() {
	local page=$1 report=$2 where
	# Every metric with a value has its chart, and no other chart is drawn.
	diff -u <(jq -r '[.comparisons[] | select(.value != null) | "\(.row) \(.metric)"] | unique | .[]' "$report") \
		<(jq -r '[.charts[].metric] | sort | .[]' "$page") || return 1
	# Each chart draws one dot per boot with a value, inside the chart, at a readable size.
	diff -u <(jq -r '[.comparisons[] | select(.value != null)] | group_by("\(.row) \(.metric)")
			| map("\(.[0].row) \(.[0].metric) \(length) \(length) \(length)") | sort | .[]' "$report") \
		<(jq -r '.charts | map("\(.metric) \(.points) \(.drawn) \(.inside)") | sort | .[]' "$page") || return 1
	jq -e '.charts | all(.width >= 300 and .height >= 120)' "$page" > /dev/null || return 1
	# The verdicts in the summary table and beside each chart are report.json's, and are shown.
	for where in table chart; do
		diff -u <(jq -r '.comparisons[] | "\(.row)|\(.metric)|\(.side)|\(.screen_verdict)"' "$report" | sort) \
			<(jq -r --arg w "$where" '.verdicts[] | select(.where == $w and .shown)
				| "\(.row)|\(.metric)|\(.side)|\(.verdict)"' "$page" | sort) || return 1
	done
	# The words shown are those of report.txt for each verdict.
	jq -e '.verdicts | map(select(.where == "table")) | all(
		(.verdict == "counts" and (.text | startswith("counts"))) or
		(.verdict == "within-noise" and (.text | startswith("within noise"))) or
		(.verdict == "loud" and .text == "loud: not judged") or
		(.verdict == "no-drift" and .text == "no drift measured") or
		(.verdict == "drift" and .text == "drift") or
		(.verdict == "baseline" and .text == "") or
		(.verdict == "missing" and .text == "missing"))' "$page" > /dev/null || return 1
	# The counts at the top are report.json's summary.
	[ "$(jq -c '.screen_summary | {counts, within_noise, loud, no_drift}' "$report")" = \
	  "$(jq -c '.summary | {counts, within_noise, loud, no_drift}' "$page")" ]
}

# One file: nothing to fetch from anywhere.
expect_self_contained() {
	! grep -Eiq '(https?:|//[a-z0-9.-]+/|<link|<script|<img|<iframe|@import|url\()' "$1"
}

@test "report.html of the recorded lab campaign: every chart and verdict as report.json says, and a screenshot" {
	"$BOOTAB" report --format html "$camp" > "$BATS_TEST_TMPDIR/out.html"
	for f in txt md json html; do
		[ -s "$camp/report.$f" ]
	done
	# stdout is the page report writes.
	cmp "$BATS_TEST_TMPDIR/out.html" "$camp/report.html"
	expect_self_contained "$camp/report.html"
	# txt and json are unchanged by the page (the recorded ones, up to the directory).
	diff -u <(sed "s:$camp:DIR:" "$camp/report.txt") <(sed "s:/tmp/runs/mini-20261130-014214:DIR:" "$fixture/report.txt")
	# (report.json says when it was written: that line alone differs.)
	diff -u <(sed "s:$camp:DIR:; /^  \"generated\": /d" "$camp/report.json") \
		<(sed "s:/tmp/runs/mini-20261130-014214:DIR:; /^  \"generated\": /d" "$fixture/report.json")

	probe "$camp/report.html" 1280
	page="$camp/report.html.1280.json"
	expect_page "$page" "$camp/report.json"
	# Four fio metrics, two boots each, no repeat: nothing is judged.
	[ "$(jq '.charts | length' "$page")" -eq 4 ]
	[ "$(jq '[.verdicts[] | select(.verdict == "no-drift")] | length' "$page")" -eq 8 ]
	# The timeline draws every span of both boots: reboot, verify, 2 gates, row, check, fetch.
	[ "$(jq .spans "$page")" -eq 14 ]
	[ "$(jq .spans_drawn "$page")" -eq 14 ]
	# The watched device is called out and its change of type highlighted.
	grep -q '<tr class="changed watch" data-device="0000:00:02.0">' "$camp/report.html"
	grep -q 'The watched device <code>0000:00:02.0</code>: translated <b>DMA-FQ</b> passthrough <b>identity</b>' \
		"$camp/report.html"

	# On a narrow screen (the phone layout; headless Chromium's narrowest window
	# is 500 pixels) the page does not scroll sideways: wide tables scroll in their box.
	probe "$camp/report.html" 412
	jq -e '.viewport <= 500 and .width <= .viewport' "$camp/report.html.412.json" > /dev/null
	jq -e '.charts | all(.inside == .drawn)' "$camp/report.html.412.json" > /dev/null

	# The whole page as a picture, for people: PNG of the page's full height.
	height=$(jq .height "$page")
	chromium_run --window-size="1280,$height" --screenshot="$BATS_TEST_TMPDIR/report-html.png" \
		"file://$camp/report.html" > /dev/null
	png="$BATS_TEST_TMPDIR/report-html.png"
	[ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
	[ "$(od -An -tu1 -j16 -N8 "$png" | awk '{ print $1*16777216 + $2*65536 + $3*256 + $4, $5*16777216 + $6*65536 + $7*256 + $8 }')" = "1280 $height" ]
	[ "$(stat -c %s "$png")" -gt 50000 ]
	cp "$png" "$(dirname "${BOOTAB_VALGRIND_BIN:-$BOOTAB}")/report-html.png"
}

@test "report.html of the case study: counts, within noise, loud and drift, and the cost beside the gains" {
	"$BOOTAB" compare --format html --by-run strata-prefill --by-run strata-decode \
		"$r2/pt" "$r2/translated" "$r2/off" "$r2/pt2" > "$BATS_TEST_TMPDIR/cs.html" 2>/dev/null
	"$BOOTAB" compare --format json --by-run strata-prefill --by-run strata-decode \
		"$r2/pt" "$r2/translated" "$r2/off" "$r2/pt2" > "$BATS_TEST_TMPDIR/cs.json" 2>/dev/null
	expect_self_contained "$BATS_TEST_TMPDIR/cs.html"
	probe "$BATS_TEST_TMPDIR/cs.html" 1280
	page="$BATS_TEST_TMPDIR/cs.html.1280.json"
	expect_page "$page" "$BATS_TEST_TMPDIR/cs.json"
	[ "$(jq '.charts | length' "$page")" -eq 9 ]
	# Every kind of verdict the rule gives is on the page.
	[ "$(jq -c '[.verdicts[] | select(.where == "table") | .verdict] | unique' "$page")" = \
	  '["baseline","counts","drift","loud","within-noise"]' ]
	[ "$(jq .summary.costs "$page")" -eq 1 ]
	# The failed check of 'off' sits beside its verdict in every chart.
	[ "$(grep -o '<span class="cost">cost: npu-validate failed, rc=1</span>' "$BATS_TEST_TMPDIR/cs.html" | wc -l)" -eq 9 ]
	# Plain side directories have no meta.json: no IOMMU map and no timeline, said so.
	grep -q 'No side recorded an IOMMU map.' "$BATS_TEST_TMPDIR/cs.html"
	grep -q 'No times were recorded.' "$BATS_TEST_TMPDIR/cs.html"
}

@test "report --format html: unknown formats are refused" {
	run "$BOOTAB" report --format pdf "$camp"
	[ "$status" -eq 2 ]
	[ ! -e "$camp/report.html" ]
	run "$BOOTAB" compare --format pdf "$r2/pt" "$r2/pt2"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: --format: 'pdf' is not txt, md, csv, json, html or mail" ]
}
