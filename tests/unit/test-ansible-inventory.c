/*
 * Unit tests for src/fleet/ansible-inventory.c and fleet-boxes.c: Ansible
 * INI inventories to OpenSSH destinations (groups, children, vars and
 * their precedence, ranges), every refusal with its file, line and field,
 * and a plan's targets and inventory keys.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fleet/ansible-inventory.h"
#include "plan/plan.h"
#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/strbuf.h"
#include "test-tmpdir.h"

static const char inventory[] =
	"# build servers\n"
	"lonely ansible_host=10.0.0.9\n"
	"\n"
	"[web]\n"
	"web[01:03] ansible_user=deploy   # three of them\n"
	"old.example.com:2201 ansible_ssh_user=admin\n"
	"\n"
	"[db]\n"
	"db-[a:b].example.com ansible_port=2222\n"
	"v6 ansible_host=fd00::5 ansible_port=22\n"
	"\n"
	"[db:vars]\n"
	"ansible_user = \"root\"\n"
	"\n"
	"[servers:children]\n"
	"web\n"
	"db\n"
	"\n"
	"[servers:vars]\n"
	"ansible_user=ops\n"
	"ansible_python_interpreter=/usr/bin/python3\n"
	"ansible_connection=ssh\n"
	"\n"
	"[all:vars]\n"
	"ansible_user=nobody\n";

/* "name=destination" for each box, one a line. */
static char *boxes_text(const struct fleet *f)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < f->n; i++)
		strbuf_addf(&sb, "%s=%s\n", f->boxes[i].name, f->boxes[i].destination);
	return strbuf_detach(&sb, NULL);
}

static void test_groups(void **state)
{
	static const struct {
		const char *group;
		const char *boxes;
	} cases[] = {
		{ NULL, "lonely=nobody@10.0.0.9\n"
			"web01=deploy@web01\nweb02=deploy@web02\nweb03=deploy@web03\n"
			"old.example.com=ssh://admin@old.example.com:2201\n"
			"db-a.example.com=ssh://root@db-a.example.com:2222\n"
			"db-b.example.com=ssh://root@db-b.example.com:2222\n"
			"v6=ssh://root@[fd00::5]:22\n" },
		{ "servers", "web01=deploy@web01\nweb02=deploy@web02\nweb03=deploy@web03\n"
			     "old.example.com=ssh://admin@old.example.com:2201\n"
			     "db-a.example.com=ssh://root@db-a.example.com:2222\n"
			     "db-b.example.com=ssh://root@db-b.example.com:2222\n"
			     "v6=ssh://root@[fd00::5]:22\n" },
		{ "web", "web01=deploy@web01\nweb02=deploy@web02\nweb03=deploy@web03\n"
			 "old.example.com=ssh://admin@old.example.com:2201\n" },
		{ "ungrouped", "lonely=nobody@10.0.0.9\n" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct parse_error err = PARSE_ERROR_INIT;
		struct fleet f;
		char *text;

		assert_int_equal(ansible_inventory_parse("hosts.ini", inventory, cases[i].group, &f, &err), 0);
		text = boxes_text(&f);
		assert_string_equal(text, cases[i].boxes);
		free(text);
		fleet_release(&f);
		parse_error_release(&err);
	}
}

static void test_precedence(void **state)
{
	/* Same depth: the later group name wins; a child over its parent; the host's own line over both. */
	static const char text[] =
		"[b]\nh1\nh2 ansible_user=own\n[a]\nh1\nh2\n[b:vars]\nansible_user=from_b\n[a:vars]\nansible_user=from_a\n"
		"[top:children]\nb\n[top:vars]\nansible_user=from_top\nansible_port=2022\n"
		"[c]\nh3\nh3 ansible_host=first\nh3 ansible_host=second\n[c:vars]\nansible_ssh_host=old\nansible_host=new\n"
		"[d]\nh4\n[d:vars]\nansible_host=new\nansible_ssh_host=old\n";
	struct parse_error err = PARSE_ERROR_INIT;
	struct fleet f;
	char *boxes;

	(void)state;
	assert_int_equal(ansible_inventory_parse("p.ini", text, NULL, &f, &err), 0);
	boxes = boxes_text(&f);
	assert_string_equal(boxes, "h1=ssh://from_b@h1:2022\nh2=ssh://own@h2:2022\nh3=second\nh4=new\n");
	free(boxes);
	fleet_release(&f);
	parse_error_release(&err);
}

static void test_ranges(void **state)
{
	static const struct {
		const char *line;
		const char *boxes;
	} cases[] = {
		{ "n[8:10]\n", "n8=n8\nn9=n9\nn10=n10\n" },
		{ "n[08:10]\n", "n08=n08\nn09=n09\nn10=n10\n" },
		{ "n[1:5:2]x\n", "n1x=n1x\nn3x=n3x\nn5x=n5x\n" },
		{ "r[1:2]c[a:b]\n", "r1ca=r1ca\nr1cb=r1cb\nr2ca=r2ca\nr2cb=r2cb\n" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct parse_error err = PARSE_ERROR_INIT;
		struct fleet f;
		char *text;

		assert_int_equal(ansible_inventory_parse("r.ini", cases[i].line, NULL, &f, &err), 0);
		text = boxes_text(&f);
		assert_string_equal(text, cases[i].boxes);
		free(text);
		fleet_release(&f);
		parse_error_release(&err);
	}
}

static void test_errors(void **state)
{
	static const struct {
		const char *text;
		const char *group;
		const char *message;
	} cases[] = {
		{ "[web]\nh1 ansible_port=0\n", NULL, "r.ini:2: ansible_port: '0' is not a port from 1 to 65535" },
		{ "h1:99999\n", NULL, "r.ini:1: ansible_port: '99999' is not a port from 1 to 65535" },
		{ "h1 ansible_user=a@b\n", NULL,
		  "r.ini:1: ansible_user: 'a@b' is not a user name ssh can be given (none starts with '-' or holds '@', spaces or control characters)" },
		{ "h1 ansible_host=-oProxyCommand=x\n", NULL,
		  "r.ini:1: ansible_host: '-oProxyCommand=x' is not a host name or address ssh can be given (none starts with '-' or holds '@', spaces or control characters)" },
		{ "\n\nh1 ansible_password=hunter2\n", NULL,
		  "r.ini:3: ansible_password: bootab takes no password from a file (sudo asks on the terminal; ssh uses keys or its agent)" },
		{ "[g:vars]\nansible_become_pass=x\n", NULL,
		  "r.ini:2: ansible_become_pass: bootab takes no password from a file (sudo asks on the terminal; ssh uses keys or its agent)" },
		{ "h1 ansible_ssh_private_key_file=~/.ssh/k\n", NULL,
		  "r.ini:1: ansible_ssh_private_key_file: bootab runs ssh with the user's own configuration: put this in ~/.ssh/config for the host" },
		{ "h1 ansible_connection=local\n", NULL,
		  "r.ini:1: ansible_connection: 'local': bootab reaches boxes with OpenSSH only (ssh or smart)" },
		{ "h1 novalue\n", NULL, "r.ini:1: 'novalue' is not a key=value variable" },
		{ "h1 ansible_user=\"open\n", NULL, "r.ini:1: host: a quote is not closed" },
		{ "h$1\n", NULL, "r.ini:1: host: 'h$1' is not a host name bootab can name a directory after (letters, digits and _ . -)" },
		{ "n[3:1]\n", NULL, "r.ini:1: host: 'n[3:1]': a range runs from its start up to its end, at most 1000 hosts" },
		{ "n[1:x]\n", NULL, "r.ini:1: host: 'n[1:x]': a range's bounds are numbers or single letters" },
		{ "n[1::2]\n", NULL, "r.ini:1: host: 'n[1::2]': a range is [START:END] or [START:END:STEP]" },
		{ "n[1:2\n", NULL, "r.ini:1: host: 'n[1:2' has a '[' without ']'" },
		{ "[web:hosts]\n", NULL, "r.ini:1: section: '[web:hosts]' is not [GROUP], [GROUP:vars] or [GROUP:children]" },
		{ "[we b]\n", NULL, "r.ini:1: section: 'we b' is not a group name (letters, digits and _ . -)" },
		{ "[a:children]\nb\n[b:children]\na\n", NULL, "r.ini:1: children: the groups' children form a cycle: a -> b -> a" },
		{ "[x:children]\na\n[a:children]\nb\n[b:children]\nc\n[c:children]\nb\n", NULL, "r.ini:5: children: the groups' children form a cycle: b -> c -> b" },
		{ "[a:children]\nnone\n", NULL, "r.ini:1: children: 'none' is not a group of the inventory" },
		{ "[a:children]\nall\n", NULL, "r.ini:2: children: 'all' cannot be a child of a" },
		{ "h1\n", "web", "r.ini: group: 'web' is not a group of the inventory" },
		{ "h1\x01\n", NULL, "r.ini:1: a control character" },
		/* Found by fuzz-ansible-inventory: a step past LONG_MAX overflowed the next value. */
		{ "n[1:9:288888888888888888888]x\nbad$\n", NULL,
		  "r.ini:2: host: 'bad$' is not a host name bootab can name a directory after (letters, digits and _ . -)" },
		/* Found by fuzz-ansible-inventory: the name was the ssh destination. */
		{ "---v\n", NULL, "r.ini:1: host: '---v' starts with '-': ssh would read it as an option" },
		{ "-oProxyCommand=x ansible_host=10.0.0.1\n", NULL,
		  "r.ini:1: host: '-oProxyCommand=x' is not a host name bootab can name a directory after (letters, digits and _ . -)" },
		{ "[web]\n-h[1:2] ansible_host=10.0.0.1\n", NULL, "r.ini:2: host: '-h1' starts with '-': ssh would read it as an option" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct parse_error err = PARSE_ERROR_INIT;
		struct fleet f = { .n = 99 };
		char *msg;

		assert_int_equal(ansible_inventory_parse("r.ini", cases[i].text, cases[i].group, &f, &err), -EINVAL);
		/* Output untouched on error. */
		assert_int_equal(f.n, 99);
		msg = parse_error_format(&err);
		assert_string_equal(msg, cases[i].message);
		free(msg);
		parse_error_release(&err);
	}
}

static const char plan_tail[] = "[mode \"a\"]\nargs =\n[mode \"b\"]\nargs = iommu=pt\n";

static char *plan_text(const char *campaign)
{
	return xasprintf("[campaign]\n%s%s", campaign, plan_tail);
}

static void test_plan_keys(void **state)
{
	static const struct {
		const char *campaign;
		const char *message;   /* NULL: parses */
	} cases[] = {
		{ "targets = root@a b\ntargets = ssh://c:2222\n", NULL },
		{ "inventory = hosts.ini\ngroup = web\n", NULL },
		{ "target = a\ntargets = b c\n", "p.ini:3: targets: a plan names one target, or a fleet with targets or inventory, not both" },
		{ "targets = a b\ninventory = h.ini\n", "p.ini:3: inventory: a fleet is named by targets or by an inventory, not both" },
		{ "group = web\n", "p.ini: group: takes an inventory: the group is one of the inventory's" },
		{ "targets = a local\n", "p.ini:2: targets: 'local' is not an SSH destination (none is local or lab, starts with '-' or holds control characters)" },
		{ "targets = a -oX\n", "p.ini:2: targets: '-oX' is not an SSH destination (none is local or lab, starts with '-' or holds control characters)" },
		{ "targets = a a\n", "p.ini:2: targets: 'a' is named twice" },
		{ "inventory = h.ini\ngroup = w/x\n", "p.ini:3: group: 'w/x' is not an inventory group name (letters, digits and _ . -)" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct parse_error err = PARSE_ERROR_INIT;
		struct plan plan, again;
		char *text = plan_text(cases[i].campaign), *formatted, *msg;
		int r = plan_parse("p.ini", text, &plan, &err);

		if (!cases[i].message) {
			assert_int_equal(r, 0);
			assert_true(plan_is_fleet(&plan));
			/* Written out and read again, the fleet is the same. */
			formatted = plan_format(&plan);
			assert_int_equal(plan_parse("p.ini", formatted, &again, &err), 0);
			assert_int_equal(again.targets.n, plan.targets.n);
			for (size_t k = 0; k < plan.targets.n; k++)
				assert_string_equal(again.targets.items[k], plan.targets.items[k]);
			assert_true((again.inventory == NULL) == (plan.inventory == NULL));
			if (plan.inventory)
				assert_string_equal(again.inventory, plan.inventory);
			free(formatted);
			plan_release(&again);
			plan_release(&plan);
		} else {
			assert_int_equal(r, -EINVAL);
			msg = parse_error_format(&err);
			assert_string_equal(msg, cases[i].message);
			free(msg);
		}
		parse_error_release(&err);
		free(text);
	}
}

static void test_fleet_from_plan(void **state)
{
	char *dir = test_tmpdir(), *plan_path, *inv_path, *text, *boxes;
	struct parse_error err = PARSE_ERROR_INIT;
	struct plan plan;
	struct fleet f;

	(void)state;
	plan_path = path_join(dir, "p.ini");
	inv_path = path_join(dir, "hosts.ini");
	assert_int_equal(file_write_atomic(inv_path, inventory, strlen(inventory), 0644), 0);

	/* The inventory is read beside the plan. */
	text = plan_text("inventory = hosts.ini\ngroup = db\n");
	assert_int_equal(file_write_atomic(plan_path, text, strlen(text), 0644), 0);
	free(text);
	assert_int_equal(plan_load(plan_path, &plan, &err), 0);
	assert_int_equal(fleet_from_plan(&plan, &f, &err), 0);
	boxes = boxes_text(&f);
	assert_string_equal(boxes, "db-a.example.com=ssh://root@db-a.example.com:2222\n"
				   "db-b.example.com=ssh://root@db-b.example.com:2222\nv6=ssh://root@[fd00::5]:22\n");
	free(boxes);
	fleet_release(&f);
	plan_release(&plan);

	/* targets: each box named by its host (and port), without the user. */
	assert_int_equal(plan_parse("t.ini", "[campaign]\ntargets = root@a ssh://u@b:2222 c\n[mode \"a\"]\n", &plan, &err), 0);
	assert_int_equal(fleet_from_plan(&plan, &f, &err), 0);
	boxes = boxes_text(&f);
	assert_string_equal(boxes, "a=root@a\nb_2222=ssh://u@b:2222\nc=c\n");
	free(boxes);
	fleet_release(&f);
	plan_release(&plan);

	/* Two destinations of one host are two boxes of one name. */
	assert_int_equal(plan_parse("t.ini", "[campaign]\ntargets = root@a other@a\n[mode \"a\"]\n", &plan, &err), 0);
	assert_int_equal(fleet_from_plan(&plan, &f, &err), -EINVAL);
	text = parse_error_format(&err);
	assert_string_equal(text, "t.ini:2: targets: 'root@a' and 'other@a' are both box 'a': each box needs a name of its own");
	free(text);
	plan_release(&plan);

	/* Two boxes of other names that reach one machine (the user, the default port, case): refused, naming both. */
	assert_int_equal(plan_parse("t.ini", "[campaign]\ntargets = root@box1 c ssh://admin@BOX1:22\n[mode \"a\"]\n", &plan, &err), 0);
	assert_int_equal(fleet_from_plan(&plan, &f, &err), -EINVAL);
	text = parse_error_format(&err);
	assert_string_equal(text, "t.ini:2: targets: boxes box1 ('root@box1') and BOX1_22 ('ssh://admin@BOX1:22') are one machine "
				  "(box1 port 22): two campaigns would reboot it under each other");
	free(text);
	plan_release(&plan);
	assert_int_equal(plan_parse("t.ini", "[campaign]\ntargets = u@fd00::5 ssh://u@[fd00::5]:22\n[mode \"a\"]\n", &plan, &err), 0);
	assert_int_equal(fleet_from_plan(&plan, &f, &err), -EINVAL);
	plan_release(&plan);
	/* Another port is another machine (a forwarded port, a VM). */
	assert_int_equal(plan_parse("t.ini", "[campaign]\ntargets = ssh://u@h:2222 ssh://u@h:2223 h\n[mode \"a\"]\n", &plan, &err), 0);
	assert_int_equal(fleet_from_plan(&plan, &f, &err), 0);
	fleet_release(&f);
	plan_release(&plan);
	/* Two inventory hosts of one ansible_host. */
	{
		static const char twice[] = "[web]\nw1 ansible_host=box1\nw2 ansible_host=box2\nw3 ansible_host=box1 ansible_user=admin\n";

		assert_int_equal(file_write_atomic(inv_path, twice, strlen(twice), 0644), 0);
	}
	text = plan_text("inventory = hosts.ini\n");
	assert_int_equal(file_write_atomic(plan_path, text, strlen(text), 0644), 0);
	free(text);
	assert_int_equal(plan_load(plan_path, &plan, &err), 0);
	assert_int_equal(fleet_from_plan(&plan, &f, &err), -EINVAL);
	text = parse_error_format(&err);
	assert_non_null(strstr(text, "hosts.ini:4: host: boxes w1 ('box1') and w3 ('admin@box1') are one machine (box1 port 22): "
				     "two campaigns would reboot it under each other"));
	free(text);
	plan_release(&plan);
	assert_int_equal(file_write_atomic(inv_path, inventory, strlen(inventory), 0644), 0);

	/* One box is not a fleet. */
	text = plan_text("inventory = hosts.ini\ngroup = ungrouped\n");
	assert_int_equal(file_write_atomic(plan_path, text, strlen(text), 0644), 0);
	free(text);
	assert_int_equal(plan_load(plan_path, &plan, &err), 0);
	assert_int_equal(fleet_from_plan(&plan, &f, &err), -EINVAL);
	text = parse_error_format(&err);
	assert_non_null(strstr(text, "hosts.ini: group: 1 box: a fleet has at least two (a single box is target = DESTINATION)"));
	free(text);
	plan_release(&plan);

	/* A missing inventory names its path. */
	text = plan_text("inventory = nowhere.ini\n");
	assert_int_equal(file_write_atomic(plan_path, text, strlen(text), 0644), 0);
	free(text);
	assert_int_equal(plan_load(plan_path, &plan, &err), 0);
	assert_int_equal(fleet_from_plan(&plan, &f, &err), -ENOENT);
	text = parse_error_format(&err);
	assert_non_null(strstr(text, "/nowhere.ini: cannot read the inventory: No such file or directory"));
	free(text);
	plan_release(&plan);

	parse_error_release(&err);
	free(plan_path);
	free(inv_path);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_plan_keys),
		cmocka_unit_test(test_fleet_from_plan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
