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
			text: e.textContent, shown: shown(e.getBoundingClientRect()),
			right: Math.ceil(e.getBoundingClientRect().right) });
	});
	out.tests = [];
	document.querySelectorAll('[data-test-verdict]').forEach(function (e) {
		var r = e.getBoundingClientRect();
		out.tests.push({ where: e.classList.contains('fr') ? 'forest' : 'chart', row: e.dataset.row,
			metric: e.dataset.metric, mode: e.dataset.mode, verdict: e.dataset.testVerdict,
			text: (e.querySelector('.pill') || e).textContent, shown: shown(r), right: Math.ceil(r.right) });
	});
	out.reps = [];
	document.querySelectorAll('svg[data-metric]').forEach(function (s) {
		out.reps.push({ metric: s.getAttribute('data-metric'), reps: +s.getAttribute('data-reps'),
			drawn: s.querySelectorAll('circle.rep').length, runs: s.querySelectorAll('path.run').length });
	});
	out.headline = [];
	document.querySelectorAll('#headline p.hl').forEach(function (e) {
		var r = e.getBoundingClientRect();
		out.headline.push({ mode: e.dataset.mode, text: e.textContent, shown: shown(r), right: Math.ceil(r.right) });
	});
	out.regions = {};
	['headline', 'forest'].forEach(function (id) {
		var e = document.getElementById(id);
		if (!e)
			return;
		var r = e.getBoundingClientRect();
		out.regions[id] = { x: Math.floor(r.left + window.scrollX), y: Math.floor(r.top + window.scrollY),
			w: Math.floor(r.width), h: Math.floor(r.height), right: Math.ceil(r.right) };
	});
	out.fontsize = {};
	document.querySelectorAll('#forest .fl, #forest svg text, #headline p.hl').forEach(function (e) {
		var k = e.closest('svg') ? 'axis' : e.closest('#headline') ? 'headline' : 'label',
			px = parseFloat(getComputedStyle(e).fontSize);
		out.fontsize[k] = Math.min(out.fontsize[k] || 99, px);
	});
	document.querySelectorAll('[data-summary]').forEach(function (e) {
		out.summary[e.dataset.summary] = parseInt(e.textContent, 10);
	});
	document.querySelectorAll('svg.timeline rect.span').forEach(function (e) {
		out.spans++;
		if (shown(e.getBoundingClientRect()))
			out.spans_drawn++;
	});
	/* Each section: its right edge, and its boxes whose content is wider than the box (cut, to scroll sideways). */
	out.sections = {};
	document.querySelectorAll('main > section[id]').forEach(function (sec) {
		var cut = 0;
		sec.querySelectorAll('.scroll').forEach(function (e) {
			if (e.scrollWidth > e.clientWidth + 1)
				cut++;
		});
		out.sections[sec.id] = { right: Math.ceil(sec.getBoundingClientRect().right), cut: cut };
	});
	out.height = Math.ceil(document.documentElement.scrollHeight);
	out.width = Math.ceil(document.documentElement.scrollWidth);
	out.viewport = window.innerWidth;
	var text = JSON.stringify(out).replace(/[<>&\u007f-\uffff]/g, function (c) {
		return '\\u' + ('000' + c.charCodeAt(0).toString(16)).slice(-4);
	});
	/* In a frame (the phone width), the frame's page tells the page around it. */
	if (window.parent !== window) {
		window.parent.postMessage(text, '*');
		return;
	}
	var pre = document.createElement('pre');
	pre.id = 'bootab-check';
	pre.textContent = text;
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

# probe_phone PAGE WIDTH: as probe, with the page in a frame WIDTH pixels wide
# (headless Chromium's window is at least 500 pixels: a frame is narrower),
# writing PAGE.WIDTH.json; the frame sits at the window's top left corner.
probe_phone() {
	local page=$1 width=$2
	{ cat "$page"; probe_script; } > "$page.probe.html"
	phone_frame "$page.probe.html" "$width" 4000 > "$page.frame.html"
	chromium_run --window-size=1000,1000 --virtual-time-budget=20000 --dump-dom "file://$page.frame.html" \
		> "$page.$width.dom" || return 1
	sed -n 's:.*<pre id="bootab-check">\(.*\)</pre>.*:\1:p' "$page.$width.dom" > "$page.$width.json"
	jq -e 'type == "object"' "$page.$width.json" > /dev/null
}

# phone_frame PAGE WIDTH HEIGHT: a page holding PAGE in a frame of WIDTH x HEIGHT pixels
phone_frame() {
	cat <<EOF
<!DOCTYPE html><html><head><meta charset="utf-8"><style>html,body{margin:0;padding:0}iframe{border:0;display:block}</style></head>
<body><iframe src="file://$1" width="$2" height="$3"></iframe><script>
window.addEventListener('message', function (e) {
	var pre = document.createElement('pre');
	pre.id = 'bootab-check';
	pre.textContent = e.data;
	document.body.appendChild(pre);
});
</script></body></html>
EOF
}

# ink PNG REGION-JSON: pixels of the region (x, y, w, h) that differ from its
# most common colour, and how many colours it has
ink() {
	local png=$1 r=$2
	/usr/bin/python3 "$BATS_TEST_DIRNAME/helpers/png-region.py" ink "$png" \
		"$(jq .x <<<"$r")" "$(jq .y <<<"$r")" "$(jq .w <<<"$r")" "$(jq .h <<<"$r")"
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
	# The headline opens the page, line by line as report.json (and report.txt) has it.
	diff -u <(jq -r '.headline[] | "\(.mode)|\(.text)"' "$report") \
		<(jq -r '.headline[] | select(.shown) | "\(.mode)|\(.text)"' "$page") || return 1
	# Every boot-level test is a line of the forest plot and a verdict beside its
	# chart, as report.json has it, in the words of report.txt.
	for where in forest chart; do
		diff -u <(jq -r '.boot_level[] | . as $m | .tests[] | "\($m.row)|\($m.metric)|\(.mode)|\(.test_verdict)"' \
				"$report" | sort) \
			<(jq -r --arg w "$where" '.tests[] | select(.where == $w and .shown)
				| "\(.row)|\(.metric)|\(.mode)|\(.verdict)"' "$page" | sort) || return 1
	done
	jq -e '.tests | all(
		(.verdict == "counts" and ((.text | startswith("counts")) or .text == "not after FDR")) or
		(.verdict == "within-noise" and .text == "within noise") or
		(.verdict == "untested" and .text == "not tested") or
		(.verdict == "same" and (.text | startswith("same within ±"))) or
		(.verdict == "undecided" and .text == "undecided"))' "$page" > /dev/null || return 1
	# Every rep of every boot is drawn in its metric's chart.
	diff -u <(jq -r '[.comparisons[] | select(.value != null)] | group_by("\(.row) \(.metric)")
			| map("\(.[0].row) \(.[0].metric) \(map(.samples | length) | add)") | sort | .[]' "$report") \
		<(jq -r '.reps | map("\(.metric) \(.drawn)") | sort | .[]' "$page") || return 1
	jq -e '.reps | all(.reps == .drawn)' "$page" > /dev/null || return 1
	# The counts at the top are report.json's summary.
	[ "$(jq -c '.screen_summary | {counts, within_noise, loud, no_drift}' "$report")" = \
	  "$(jq -c '.summary | {counts, within_noise, loud, no_drift}' "$page")" ]
}

# One file: nothing to fetch from anywhere.
expect_self_contained() {
	! grep -Eiq '(https?:|//[a-z0-9.-]+/|<link|<script|<img|<iframe|@import|url\()' "$1" || return 1
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
	# No baseline of costs found by bootab (no inventory): the page names none, not "every boot of pt ()".
	! grep -q 'every boot of [^<]*()' "$BATS_TEST_TMPDIR/cs.html" || false
	# At 1280 pixels the answer, the forest plot, the summary and the gains and costs fit their boxes:
	# no column cut, nothing to scroll sideways.
	jq -e '[.sections | (.headline, .summary, ."gains-costs") | .cut == 0 and .right <= 1280] | all' "$page" > /dev/null
	# At 400 pixels (a phone) the same: every delta, verdict and cost on the screen.
	probe_phone "$BATS_TEST_TMPDIR/cs.html" 400
	phone="$BATS_TEST_TMPDIR/cs.html.400.json"
	jq -e '.viewport == 400 and .width <= 400' "$phone" > /dev/null
	jq -e '[.sections | (.headline, .summary, ."gains-costs") | .cut == 0 and .right <= 400] | all' "$phone" > /dev/null
	jq -e '[.verdicts[] | select(.where == "table" and .shown) | .right] | length > 0 and max <= 400' "$phone" > /dev/null
}

@test "report.html: the headline and the forest plot of every boot-level result, at 1280 and at 400 pixels, and their screenshots" {
	c="$BATS_TEST_DIRNAME/../fixtures/campaign-abca"
	all="$c/pt $c/translated $c/off $c/pt2 $c/translated2 $c/off2 $c/pt3 $c/translated3 $c/off3 $c/pt4"
	html="$BATS_TEST_TMPDIR/abca.html"
	# shellcheck disable=SC2086
	"$BOOTAB" compare --format html --equivalence 1% $all > "$html"
	# shellcheck disable=SC2086
	"$BOOTAB" compare --format json --equivalence 1% $all > "$BATS_TEST_TMPDIR/abca.json"
	expect_self_contained "$html"
	probe "$html" 1280
	page="$html.1280.json"
	expect_page "$page" "$BATS_TEST_TMPDIR/abca.json"
	# A claim, one the same within the margin and two undecided, each with its CI.
	[ "$(jq -c '[.tests[] | select(.where == "forest") | .verdict] | sort' "$page")" = '["counts","same","undecided","undecided"]' ]
	[ "$(grep -o '<line class="ci"' "$html" | wc -l)" -eq 12 ]
	[ "$(grep -o '<rect class="margin"' "$html" | wc -l)" -eq 4 ]

	# At 400 pixels (a phone), the forest plot needs no sideways scrolling and its text stays readable.
	probe_phone "$html" 400
	phone="$html.400.json"
	jq -e '.viewport == 400 and .width <= 400' "$phone" > /dev/null
	jq -e '.regions.forest.right <= 400 and ([.tests[] | select(.where == "forest" and .shown) | .right] | length == 4 and max <= 400)' \
		"$phone" > /dev/null
	jq -e '.fontsize.label >= 12 and .fontsize.axis >= 10 and .fontsize.headline >= 12' "$phone" > /dev/null
	jq -e '.regions.headline.right <= 400 and (.headline | length == 2 and all(.right <= 400))' "$phone" > /dev/null
	expect_page "$phone" "$BATS_TEST_TMPDIR/abca.json"

	# Screenshots down to the forest plot's end, written next to bootab, with ink where the plot is.
	build=$(dirname "${BOOTAB_VALGRIND_BIN:-$BOOTAB}")
	png="$build/report-html-1280.png"
	h=$(jq '.regions.forest.y + .regions.forest.h + 16' "$page")
	chromium_run --window-size="1280,$h" --screenshot="$png" "file://$html" > /dev/null
	[ "$(/usr/bin/python3 "$BATS_TEST_DIRNAME/helpers/png-region.py" size "$png")" = "1280 $h" ]
	for region in headline forest; do
		read -r n colours < <(ink "$png" "$(jq -c ".regions.$region" "$page")")
		[ "$n" -gt "$(jq ".regions.$region.w * .regions.$region.h / 50 | floor" "$page")" ]
		[ "$colours" -gt 8 ]
	done
	# The page's margin beside it is blank: the count tells the two apart.
	read -r n _ < <(ink "$png" "$(jq -c '.regions.forest | {x: 0, y, w: 40, h}' "$page")")
	[ "$n" -eq 0 ]
	png="$build/report-html-400.png"
	h=$(jq '.regions.forest.y + .regions.forest.h + 16' "$phone")
	phone_frame "$html" 400 "$h" > "$BATS_TEST_TMPDIR/frame.html"
	chromium_run --window-size="500,$h" --screenshot="$BATS_TEST_TMPDIR/frame.png" "file://$BATS_TEST_TMPDIR/frame.html" > /dev/null
	/usr/bin/python3 "$BATS_TEST_DIRNAME/helpers/png-region.py" crop "$BATS_TEST_TMPDIR/frame.png" 0 0 400 "$h" "$png"
	[ "$(/usr/bin/python3 "$BATS_TEST_DIRNAME/helpers/png-region.py" size "$png")" = "400 $h" ]
	for region in headline forest; do
		read -r n colours < <(ink "$png" "$(jq -c ".regions.$region" "$phone")")
		[ "$n" -gt "$(jq ".regions.$region.w * .regions.$region.h / 50 | floor" "$phone")" ]
		[ "$colours" -gt 8 ]
	done
}

@test "report --format html: unknown formats are refused" {
	run "$BOOTAB" report --format pdf "$camp"
	[ "$status" -eq 2 ]
	[ ! -e "$camp/report.html" ]
	run "$BOOTAB" compare --format pdf "$r2/pt" "$r2/pt2"
	[ "$status" -eq 2 ]
	[ "$output" = "bootab: --format: 'pdf' is not txt, md, csv, json, html or mail; see 'bootab help compare'" ]
}
