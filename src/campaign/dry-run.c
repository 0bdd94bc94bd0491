#include <stdio.h>
#include <stdlib.h>

#include "campaign/internal.h"
#include "campaign/runner.h"
#include "lib/shell-quote.h"
#include "lib/strbuf.h"

void campaign_dry_run(struct campaign *c)
{
	printf("campaign %s: %zu boots on %s, data in %s\n", c->name, c->n_boots,
	       c->plan.target ? c->plan.target : "(no target)", c->dir);
	for (size_t k = 0; k < c->n_boots; k++) {
		const struct plan_mode *m = &c->plan.modes[c->boots[k].mode];
		struct runner_options so = {
			.campaign = c->name, .boot_index = k, .n_boots = c->n_boots,
			.label = c->boots[k].label, .mode = m->name, .park = k == 0,
			.unpark = k + 1 == c->n_boots,
		};
		char *script = runner_generate(&c->plan, &so), *dir = campaign_remote_dir(c, k);
		struct strbuf sb = STRBUF_INIT;

		printf("\n== boot %zu/%zu: %s (mode %s)\n", k + 1, c->n_boots, c->boots[k].label, m->name);
		strbuf_addstr(&sb, "bootab set --target ");
		shell_quote_append(&sb, c->plan.target ? c->plan.target : "?");
		strbuf_addf(&sb, " --backend %s --managed ", c->plan.backend);
		{
			struct strbuf w = STRBUF_INIT;

			for (char **a = c->managed; *a; a++)
				strbuf_addf(&w, "%s%s", a == c->managed ? "" : " ", *a);
			shell_quote_append(&sb, strbuf_str(&w));
			strbuf_release(&w);
		}
		strbuf_addstr(&sb, " --args ");
		shell_quote_append(&sb, m->args_text);
		printf("%s\n", strbuf_str(&sb));
		printf("bootab reboot --target %s --timeout %u%s%s\n", c->plan.target ? c->plan.target : "?",
		       c->plan.boot_timeout_s, c->plan.power_cycle ? " --power-cycle " : "",
		       c->plan.power_cycle ? c->plan.power_cycle : "");
		strbuf_truncate(&sb, 0);
		strbuf_addf(&sb, "bootab verify --target %s --args ", c->plan.target ? c->plan.target : "?");
		shell_quote_append(&sb, m->args_text);
		for (size_t e = 0; e < m->expects.n; e++) {
			strbuf_addstr(&sb, " --expect ");
			shell_quote_append(&sb, m->expects.items[e]);
		}
		printf("%s\nbootab snapshot --target %s\n", strbuf_str(&sb), c->plan.target ? c->plan.target : "?");
		printf("# the per-boot script, started detached in %s:\n%s", dir, script);
		printf("# then its results are fetched into %s/%s\n", c->dir, c->boots[k].label);
		strbuf_release(&sb);
		free(script);
		free(dir);
	}
}
