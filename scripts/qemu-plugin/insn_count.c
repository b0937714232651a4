// SPDX-License-Identifier: GPL-2.0
/*
 * insn_count: a QEMU TCG plugin that counts the guest instructions
 * executed, in total and inside one guest address range (a driver
 * module's .text), for scripts/bench.sh's instructions-per-packet figures.
 * Unlike a rate, a count does not move with the host's load.
 *
 *   -plugin FILE,ctl=DIR
 *
 * The guest asks through files in DIR (a folder of its writable 9p share),
 * as scripts/guest/lib.sh's host_request does with vm.sh: it writes
 * DIR/ID.req, one line, and waits for DIR/ID.resp:
 *   range LO HI   count [LO, HI) from now on (hex addresses); answered
 *                 "range LO HI" once every translation made before is
 *                 gone (the range is decided when a block is translated)
 *   snap          answered "snap TOTAL IN_RANGE": the counts so far, over
 *                 all vCPUs
 *   profile-reset zero the profile's counts (answered "profile-reset")
 *   profile NAME  write DIR/NAME: "VADDR INSNS" for every translated
 *                 block of the guest kernel (from 0xffffffff80000000:
 *                 its text and modules) that ran since profile-reset, its
 *                 instructions executed over all vCPUs (answered
 *                 "profile N", N lines); what a symbol map of the guest
 *                 (scripts/guest/lib.sh's insn_profile) turns into
 *                 instructions by function
 * A block's instructions are added when it is entered (an inline add, per
 * vCPU, no helper call); a block left early by an exception still counts
 * whole, a rounding far below a packet's cost.
 */
#include <glib.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

struct counts {
	uint64_t total;
	uint64_t in_range;
};

static qemu_plugin_id_t plugin_id;
static struct qemu_plugin_scoreboard *board;
static qemu_plugin_u64 total_u64, in_range_u64;
static char *ctl_dir;

/* The range; a new one waits in pending_* until a vCPU applies it. */
static pthread_mutex_t range_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t range_lo, range_hi, pending_lo, pending_hi;
static int range_pending, range_applied;

/*
 * The profile: a slot per block start address of the guest kernel, each a
 * per-vCPU execution count (an inline add, as for the totals).
 */
#define PROFILE_SLOTS	(1 << 18)
#define KERNEL_START	0xffffffff80000000ULL

struct profile_slot {
	uint64_t vaddr;
	uint32_t insns;
};

static struct qemu_plugin_scoreboard *profile_board;
static pthread_mutex_t profile_lock = PTHREAD_MUTEX_INITIALIZER;
static GHashTable *profile_index;	/* vaddr -> slot + 1 */
static struct profile_slot *profile_slots;
static unsigned int profile_used;

static qemu_plugin_u64 profile_count(unsigned int slot)
{
	return (qemu_plugin_u64){ profile_board, slot * sizeof(uint64_t) };
}

/* The slot of the block at @vaddr of @insns instructions; -1 if full. */
static int profile_slot_of(uint64_t vaddr, uint32_t insns)
{
	gpointer found;
	int slot = -1;

	pthread_mutex_lock(&profile_lock);
	found = g_hash_table_lookup(profile_index, &vaddr);
	if (found) {
		slot = GPOINTER_TO_INT(found) - 1;
	} else if (profile_used < PROFILE_SLOTS) {
		uint64_t *key = g_new(uint64_t, 1);

		*key = vaddr;
		slot = profile_used++;
		g_hash_table_insert(profile_index, key, GINT_TO_POINTER(slot + 1));
	}
	if (slot >= 0) {
		/* A block translated again may end elsewhere: the last wins. */
		profile_slots[slot].vaddr = vaddr;
		profile_slots[slot].insns = insns;
	}
	pthread_mutex_unlock(&profile_lock);
	return slot;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);

static void reset_done(qemu_plugin_id_t id)
{
	pthread_mutex_lock(&range_lock);
	range_lo = pending_lo;
	range_hi = pending_hi;
	range_applied = 1;
	pthread_mutex_unlock(&range_lock);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i, k = 0;
	uint64_t lo, hi;
	int reset = 0;

	pthread_mutex_lock(&range_lock);
	lo = range_lo;
	hi = range_hi;
	if (range_pending) {
		/*
		 * A reset flushes every translation, so blocks translated
		 * under the old range are made again; it must start from a
		 * vCPU thread, as this callback runs in.
		 */
		range_pending = 0;
		reset = 1;
	}
	pthread_mutex_unlock(&range_lock);
	if (reset)
		qemu_plugin_reset(id, reset_done);

	for (i = 0; i < n && hi; i++) {
		uint64_t va = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, i));

		if (va >= lo && va < hi)
			k++;
	}
	qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb, QEMU_PLUGIN_INLINE_ADD_U64,
							  total_u64, n);
	if (k)
		qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb,
								  QEMU_PLUGIN_INLINE_ADD_U64,
								  in_range_u64, k);
	if (qemu_plugin_tb_vaddr(tb) >= KERNEL_START) {
		int slot = profile_slot_of(qemu_plugin_tb_vaddr(tb), n);

		if (slot >= 0)
			qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb,
									  QEMU_PLUGIN_INLINE_ADD_U64,
									  profile_count(slot), 1);
	}
}

static void profile_reset(void)
{
	unsigned int slot, used, vcpu, vcpus = qemu_plugin_num_vcpus();

	pthread_mutex_lock(&profile_lock);
	used = profile_used;
	pthread_mutex_unlock(&profile_lock);
	for (slot = 0; slot < used; slot++)
		for (vcpu = 0; vcpu < vcpus; vcpu++)
			qemu_plugin_u64_set(profile_count(slot), vcpu, 0);
}

/* profile_write: DIR/NAME, a line per block that ran; how many lines. */
static long profile_write(const char *name)
{
	char *path, *tmp;
	unsigned int slot, used;
	long lines = 0;
	FILE *f;

	if (strchr(name, '/'))
		return -1;
	path = g_strdup_printf("%s/%s", ctl_dir, name);
	tmp = g_strdup_printf("%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		lines = -1;
		goto out;
	}
	pthread_mutex_lock(&profile_lock);
	used = profile_used;
	pthread_mutex_unlock(&profile_lock);
	for (slot = 0; slot < used; slot++) {
		uint64_t runs = qemu_plugin_u64_sum(profile_count(slot));

		if (!runs)
			continue;
		fprintf(f, "%" PRIx64 " %" PRIu64 "\n", profile_slots[slot].vaddr,
			runs * profile_slots[slot].insns);
		lines++;
	}
	fclose(f);
	rename(tmp, path);
out:
	g_free(tmp);
	g_free(path);
	return lines;
}

/* respond: DIR/ID.resp, written whole (a rename) for the guest to read. */
static void respond(const char *id, const char *line)
{
	char *tmp = g_strdup_printf("%s/%s.tmp-resp", ctl_dir, id);
	char *resp = g_strdup_printf("%s/%s.resp", ctl_dir, id);
	FILE *f = fopen(tmp, "w");

	if (f) {
		fprintf(f, "%s\n", line);
		fclose(f);
		rename(tmp, resp);
	}
	g_free(tmp);
	g_free(resp);
}

static void handle(const char *id, const char *req)
{
	uint64_t lo, hi;
	char line[128], name[64];

	if (sscanf(req, "range %" SCNx64 " %" SCNx64, &lo, &hi) == 2 && lo < hi) {
		pthread_mutex_lock(&range_lock);
		pending_lo = lo;
		pending_hi = hi;
		range_applied = 0;
		range_pending = 1;
		pthread_mutex_unlock(&range_lock);
		for (;;) {
			int done;

			pthread_mutex_lock(&range_lock);
			done = range_applied;
			pthread_mutex_unlock(&range_lock);
			if (done)
				break;
			g_usleep(5000);
		}
		snprintf(line, sizeof(line), "range %" PRIx64 " %" PRIx64, lo, hi);
	} else if (strncmp(req, "profile-reset", 13) == 0) {
		profile_reset();
		snprintf(line, sizeof(line), "profile-reset");
	} else if (sscanf(req, "profile %63s", name) == 1) {
		snprintf(line, sizeof(line), "profile %ld", profile_write(name));
	} else if (strncmp(req, "snap", 4) == 0) {
		snprintf(line, sizeof(line), "snap %" PRIu64 " %" PRIu64,
			 qemu_plugin_u64_sum(total_u64), qemu_plugin_u64_sum(in_range_u64));
	} else {
		snprintf(line, sizeof(line), "error: unknown request");
	}
	respond(id, line);
}

/* The control thread: DIR polled for requests every 10 ms. */
static void *control(void *arg)
{
	for (;;) {
		GDir *dir = g_dir_open(ctl_dir, 0, NULL);
		const char *name;

		while (dir && (name = g_dir_read_name(dir))) {
			char *path, *req = NULL, *id;

			if (!g_str_has_suffix(name, ".req"))
				continue;
			path = g_strdup_printf("%s/%s", ctl_dir, name);
			id = g_strndup(name, strlen(name) - 4);
			if (g_file_get_contents(path, &req, NULL, NULL)) {
				unlink(path);
				handle(id, req);
				g_free(req);
			}
			g_free(id);
			g_free(path);
		}
		if (dir)
			g_dir_close(dir);
		g_usleep(10000);
	}
	return arg;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	pthread_t thread;
	int i;

	for (i = 0; i < argc; i++) {
		if (g_str_has_prefix(argv[i], "ctl="))
			ctl_dir = g_strdup(argv[i] + 4);
	}
	if (!ctl_dir) {
		fprintf(stderr, "insn_count: ctl=DIR is required\n");
		return -1;
	}
	plugin_id = id;
	board = qemu_plugin_scoreboard_new(sizeof(struct counts));
	total_u64 = qemu_plugin_scoreboard_u64_in_struct(board, struct counts, total);
	in_range_u64 = qemu_plugin_scoreboard_u64_in_struct(board, struct counts, in_range);
	profile_board = qemu_plugin_scoreboard_new(PROFILE_SLOTS * sizeof(uint64_t));
	profile_slots = g_new0(struct profile_slot, PROFILE_SLOTS);
	profile_index = g_hash_table_new(g_int64_hash, g_int64_equal);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	if (pthread_create(&thread, NULL, control, NULL))
		return -1;
	pthread_detach(thread);
	return 0;
}
