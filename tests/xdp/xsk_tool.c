// SPDX-License-Identifier: GPL-2.0
/*
 * AF_XDP test and benchmark tool for ronic's tests: one socket on one
 * queue, its own umem and the four rings mapped straight from the kernel
 * (libbpf 1.1 has no xsk.h), and xsk_redirect.o attached to send the
 * queue's frames to it. Three loops:
 *
 *   rxdrop  count what arrives and give the buffers back
 *   txpush  send exactly -n UDP frames and wait for all their completions
 *   l2fwd   send every frame back out with its MAC addresses swapped
 *
 *   xsk_tool -i IFNAME -q QUEUE -m rxdrop|txpush|l2fwd [options]
 *
 * stdout gets one "xsk_tool ..." line at the end (and each second with
 * -P) and one "xsk_stats ..." line; messages go to stderr. Exit status:
 * 0 ok, 1 frames missing (txpush: not all completed; rx modes with -n:
 * fewer received), 2 setup failure, including a refused -z.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/if_xdp.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>

#ifndef AF_XDP
#define AF_XDP			44
#endif
#ifndef SOL_XDP
#define SOL_XDP			283
#endif
#ifndef SO_PREFER_BUSY_POLL
#define SO_PREFER_BUSY_POLL	69
#endif
#ifndef SO_BUSY_POLL_BUDGET
#define SO_BUSY_POLL_BUDGET	70
#endif

#define FRAME_SIZE	4096	/* umem chunk; a power of two */
#define RING_SIZE	2048
#define BATCH		64
#define MAX_QUEUE	64	/* max_entries of xsks */
#define IDLE_US		10000	/* this long with nothing to do: sleep */
#define UDP_SPORT	9
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

enum mode { RXDROP, TXPUSH, L2FWD };
static const char *const mode_names[] = { "rxdrop", "txpush", "l2fwd" };

struct opts {
	const char *ifname;
	unsigned int ifindex;
	unsigned int queue;
	enum mode mode;
	char obj_path[PATH_MAX];
	__u16 bind_flags;
	bool need_wakeup;
	unsigned int busy_poll;		/* usecs, 0: off */
	unsigned long long frames;	/* -n; 0: unlimited (rx modes) */
	unsigned int seconds;
	unsigned int size;
	unsigned int nframes;		/* umem chunks */
	__u32 xdp_mode;			/* XDP_FLAGS_{DRV,SKB}_MODE */
	bool keep_prog;
	bool periodic;
	bool kick_once;			/* -K: txpush kicks the first batch only */
	bool stall;			/* -Z: rxdrop stops consuming after a frame */
	unsigned int idle_ms;		/* -I: rx modes stop this long after the last frame */
	unsigned int rate;		/* -r: txpush queues at most this many frames a second */
	unsigned char src_mac[ETH_ALEN];
	unsigned char dst_mac[ETH_ALEN];
	bool src_mac_set;
	struct in_addr src_ip;
	struct in_addr dst_ip;
	unsigned int port;
};

/*
 * One mapped ring. For a ring we produce (fill, tx) prod is ours and cons
 * the kernel's as last read; for one we consume (rx, completion) the
 * other way round. Reading the shared index only when the cached one
 * runs out keeps the cache line the kernel writes mostly untouched.
 */
struct ring {
	__u32 *producer;
	__u32 *consumer;
	__u32 *flags;
	void *descs;
	__u32 size;
	__u32 prod;
	__u32 cons;
	void *map;
	size_t map_len;
};

/* Free umem chunks, by address. */
struct stack {
	__u64 *addr;
	__u32 n;
	__u32 cap;
};

struct ctx {
	struct opts *o;
	int fd;
	unsigned char *umem;
	size_t umem_len;
	__u64 rx_base, tx_base;		/* the two halves of the umem */
	__u32 ring_size;		/* fill and completion rings */
	struct ring fill, comp, rx, tx;
	struct stack rx_free, tx_free;
	struct bpf_object *obj;
	int prog_fd;
	bool attached;
	int zerocopy;
	unsigned long long rx_cnt, tx_cnt, completed, rx_bytes, bad_addr;
	unsigned long long t_start, t_first, t_last, t_active, t_print;
	bool failed;			/* a runtime error ended the run */
	bool kicked;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static unsigned long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000ULL + ts.tv_nsec / 1000;
}

static void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, "xsk_tool: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void __attribute__((noreturn)) usage(void)
{
	fprintf(stderr,
		"usage: xsk_tool -i IFNAME -q QUEUE -m rxdrop|txpush|l2fwd [options]\n"
		"  -o OBJ     xsk_redirect.o (default: beside this executable)\n"
		"  -z | -c    bind with XDP_ZEROCOPY | XDP_COPY (default: kernel's choice)\n"
		"  -w         XDP_USE_NEED_WAKEUP\n"
		"  -B USECS   busy polling (SO_PREFER_BUSY_POLL, SO_BUSY_POLL, budget 64)\n"
		"  -n FRAMES  txpush: frames to send (100000); rx modes: stop after as many\n"
		"  -t SECS    run time (rx modes, 10) or timeout (txpush, 30)\n"
		"  -s SIZE    txpush frame size without FCS, 60..1514 (64)\n"
		"  -S MAC -D MAC  txpush source (interface's) and destination (broadcast)\n"
		"  -a IP -A IP    txpush IPv4 source (10.0.0.1) and destination (10.0.0.2)\n"
		"  -p PORT    txpush UDP destination port (9)\n"
		"  -f FRAMES  umem chunks of 4096 bytes (4096)\n"
		"  -G         attach in generic (skb) mode instead of native\n"
		"  -k         keep the XDP program attached at exit\n"
		"  -K         txpush: kick the kernel once, then only reap completions\n"
		"  -I MS      rx modes: stop once no frame came for MS ms after the first\n"
		"  -r PPS     txpush: queue at most PPS frames a second (default: no limit)\n"
		"  -Z         rxdrop: after the first frame, stop reading and refilling\n"
		"             (the socket stays bound, its fill ring runs dry) until -t\n"
		"  -P         print the counters every second\n");
	exit(2);
}

static unsigned long long parse_num(const char *s, unsigned long long min,
				    unsigned long long max, const char *what)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || v < min || v > max) {
		fprintf(stderr, "xsk_tool: bad %s '%s' (%llu..%llu)\n",
			what, s, min, max);
		exit(2);
	}
	return v;
}

static void parse_mac(const char *s, unsigned char *mac)
{
	unsigned int b[ETH_ALEN];
	char c;
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &b[0], &b[1], &b[2], &b[3],
		   &b[4], &b[5], &c) != ETH_ALEN) {
		fprintf(stderr, "xsk_tool: bad MAC address '%s'\n", s);
		exit(2);
	}
	for (i = 0; i < ETH_ALEN; i++) {
		if (b[i] > 0xff) {
			fprintf(stderr, "xsk_tool: bad MAC address '%s'\n", s);
			exit(2);
		}
		mac[i] = b[i];
	}
}

static void parse_ip(const char *s, struct in_addr *ip)
{
	if (inet_pton(AF_INET, s, ip) != 1) {
		fprintf(stderr, "xsk_tool: bad IPv4 address '%s'\n", s);
		exit(2);
	}
}

/* The object sits beside the tool in results/xdp-objs. */
static void default_obj(struct opts *o)
{
	char exe[PATH_MAX];
	ssize_t len;
	char *slash;

	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len < 0)
		die("readlink /proc/self/exe");
	exe[len] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	if (snprintf(o->obj_path, sizeof(o->obj_path), "%s/xsk_redirect.o",
		     exe) >= (int)sizeof(o->obj_path)) {
		fprintf(stderr, "xsk_tool: path of %s too long\n", exe);
		exit(2);
	}
}

static enum mode parse_mode(const char *s)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mode_names); i++)
		if (!strcmp(s, mode_names[i]))
			return i;
	fprintf(stderr, "xsk_tool: unknown mode '%s'\n", s);
	usage();
}

static void default_opts(struct opts *o)
{
	memset(o, 0, sizeof(*o));
	o->size = 64;
	o->nframes = 4096;
	o->xdp_mode = XDP_FLAGS_DRV_MODE;
	o->port = 9;
	memset(o->dst_mac, 0xff, ETH_ALEN);
	inet_pton(AF_INET, "10.0.0.1", &o->src_ip);
	inet_pton(AF_INET, "10.0.0.2", &o->dst_ip);
}

/* Defaults that depend on the mode, and what getopt cannot check. */
static void check_opts(struct opts *o, long long frames, long long seconds)
{
	if ((o->bind_flags & XDP_ZEROCOPY) && (o->bind_flags & XDP_COPY)) {
		fprintf(stderr, "xsk_tool: -z and -c exclude each other\n");
		exit(2);
	}
	if (o->mode == TXPUSH) {
		o->frames = frames < 0 ? 100000 : frames;
		o->seconds = seconds < 0 ? 30 : seconds;
	} else {
		o->frames = frames < 0 ? 0 : frames;
		o->seconds = seconds < 0 ? 10 : seconds;
	}
	if (!o->obj_path[0])
		default_obj(o);
	o->ifindex = if_nametoindex(o->ifname);
	if (!o->ifindex) {
		fprintf(stderr, "xsk_tool: %s: %s\n", o->ifname, strerror(errno));
		exit(2);
	}
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	long long frames = -1, seconds = -1;
	bool have_mode = false;
	int c;

	default_opts(o);
	while ((c = getopt(argc, argv, "i:q:m:o:zcwB:n:t:s:S:D:a:A:p:f:GkKI:r:ZPh")) != -1) {
		switch (c) {
		case 'i':
			o->ifname = optarg;
			break;
		case 'q':
			o->queue = parse_num(optarg, 0, MAX_QUEUE - 1, "queue");
			break;
		case 'm':
			o->mode = parse_mode(optarg);
			have_mode = true;
			break;
		case 'o':
			if (strlen(optarg) >= sizeof(o->obj_path))
				usage();
			strcpy(o->obj_path, optarg);
			break;
		case 'z':
			o->bind_flags |= XDP_ZEROCOPY;
			break;
		case 'c':
			o->bind_flags |= XDP_COPY;
			break;
		case 'w':
			o->need_wakeup = true;
			break;
		case 'B':
			o->busy_poll = parse_num(optarg, 1, INT_MAX, "busy poll usecs");
			break;
		case 'n':
			frames = parse_num(optarg, 1, LLONG_MAX, "frame count");
			break;
		case 't':
			seconds = parse_num(optarg, 1, 1000000, "seconds");
			break;
		case 's':
			o->size = parse_num(optarg, 60, 1514, "frame size");
			break;
		case 'S':
			parse_mac(optarg, o->src_mac);
			o->src_mac_set = true;
			break;
		case 'D':
			parse_mac(optarg, o->dst_mac);
			break;
		case 'a':
			parse_ip(optarg, &o->src_ip);
			break;
		case 'A':
			parse_ip(optarg, &o->dst_ip);
			break;
		case 'p':
			o->port = parse_num(optarg, 0, 65535, "port");
			break;
		case 'f':
			o->nframes = parse_num(optarg, 4 * BATCH, 1 << 18, "umem frames");
			break;
		case 'G':
			o->xdp_mode = XDP_FLAGS_SKB_MODE;
			break;
		case 'K':
			o->kick_once = true;
			break;
		case 'Z':
			o->stall = true;
			break;
		case 'I':
			o->idle_ms = parse_num(optarg, 1, 600000, "-I");
			break;
		case 'r':
			o->rate = parse_num(optarg, 1, 100000000, "-r");
			break;
		case 'k':
			o->keep_prog = true;
			break;
		case 'P':
			o->periodic = true;
			break;
		default:
			usage();
		}
	}
	if (optind != argc || !o->ifname || !have_mode)
		usage();
	check_opts(o, frames, seconds);
}

/* ---- rings ---- */

/* How many of want slots are free to produce into. */
static __u32 prod_reserve(struct ring *r, __u32 want)
{
	__u32 free = r->size - (r->prod - r->cons);

	if (free < want) {
		r->cons = __atomic_load_n(r->consumer, __ATOMIC_ACQUIRE);
		free = r->size - (r->prod - r->cons);
	}
	return free < want ? free : want;
}

/* The release orders the descriptors before the index the kernel reads. */
static void prod_submit(struct ring *r, __u32 n)
{
	r->prod += n;
	__atomic_store_n(r->producer, r->prod, __ATOMIC_RELEASE);
}

/* How many of want entries are there to consume. */
static __u32 cons_peek(struct ring *r, __u32 want)
{
	__u32 avail = r->prod - r->cons;

	if (avail < want) {
		r->prod = __atomic_load_n(r->producer, __ATOMIC_ACQUIRE);
		avail = r->prod - r->cons;
	}
	return avail < want ? avail : want;
}

/* The release keeps our reads of the entries before the kernel reuses them. */
static void cons_release(struct ring *r, __u32 n)
{
	r->cons += n;
	__atomic_store_n(r->consumer, r->cons, __ATOMIC_RELEASE);
}

/*
 * The full barrier keeps the flag's load after the producer store just
 * made: read early, the kernel could set the flag after its last look at
 * the ring and we would never wake it.
 */
static bool ring_needs_wakeup(struct ring *r)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return __atomic_load_n(r->flags, __ATOMIC_RELAXED) & XDP_RING_NEED_WAKEUP;
}

static __u64 *addr_ring(struct ring *r, __u32 idx)
{
	return (__u64 *)r->descs + (idx & (r->size - 1));
}

static struct xdp_desc *desc_ring(struct ring *r, __u32 idx)
{
	return (struct xdp_desc *)r->descs + (idx & (r->size - 1));
}

/* ---- umem chunks ---- */

static void stack_init(struct stack *s, __u64 base, __u32 n)
{
	__u32 i;

	s->addr = calloc(n, sizeof(*s->addr));
	if (!s->addr)
		die("calloc");
	s->cap = n;
	s->n = n;
	for (i = 0; i < n; i++)
		s->addr[i] = base + (__u64)(n - 1 - i) * FRAME_SIZE;
}

/*
 * Take back a chunk the kernel handed us if it is one of this half and
 * the pool has room for it: an address outside the half, or one handed
 * back twice (which overflows the pool), is a bug worth counting, and
 * keeping it would corrupt the pool.
 */
static void chunk_put(struct ctx *c, struct stack *s, __u64 base, __u64 addr)
{
	__u64 chunk = addr & ~(__u64)(FRAME_SIZE - 1);

	if (chunk < base || chunk >= base + (__u64)s->cap * FRAME_SIZE ||
	    s->n == s->cap) {
		c->bad_addr++;
		return;
	}
	s->addr[s->n++] = chunk;
}

/* Hand every free rx chunk that fits to the fill ring. */
static void refill(struct ctx *c)
{
	__u32 n = prod_reserve(&c->fill, c->rx_free.n), i;

	for (i = 0; i < n; i++)
		*addr_ring(&c->fill, c->fill.prod + i) = c->rx_free.addr[--c->rx_free.n];
	if (n)
		prod_submit(&c->fill, n);
}

/* ---- socket setup ---- */

static void set_opt(int fd, int level, int name, const void *val,
		    socklen_t len, const char *what)
{
	if (setsockopt(fd, level, name, val, len))
		die(what);
}

static void map_ring(struct ctx *c, struct ring *r, const struct xdp_ring_offset *off,
		     __u32 size, size_t entry, off_t pgoff, const char *what)
{
	char msg[64];

	r->size = size;
	r->map_len = off->desc + size * entry;
	r->map = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_POPULATE, c->fd, pgoff);
	if (r->map == MAP_FAILED) {
		snprintf(msg, sizeof(msg), "mmap of the %s ring", what);
		die(msg);
	}
	r->producer = (__u32 *)((char *)r->map + off->producer);
	r->consumer = (__u32 *)((char *)r->map + off->consumer);
	r->flags = (__u32 *)((char *)r->map + off->flags);
	r->descs = (char *)r->map + off->desc;
}

static void setup_umem(struct ctx *c)
{
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	__u32 half = c->o->nframes / 2;
	struct xdp_umem_reg reg;

	/* Padding too: newer kernels read a field there (tx_metadata_len). */
	memset(&reg, 0, sizeof(reg));
	/* Without CAP_IPC_LOCK the pinned umem counts against memlock. */
	setrlimit(RLIMIT_MEMLOCK, &rl);
	c->umem_len = (size_t)c->o->nframes * FRAME_SIZE;
	c->umem = mmap(NULL, c->umem_len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c->umem == MAP_FAILED)
		die("mmap of the umem");
	reg.addr = (__u64)(unsigned long)c->umem;
	reg.len = c->umem_len;
	reg.chunk_size = FRAME_SIZE;
	set_opt(c->fd, SOL_XDP, XDP_UMEM_REG, &reg, sizeof(reg),
		"setsockopt XDP_UMEM_REG");
	c->rx_base = 0;
	c->tx_base = (__u64)half * FRAME_SIZE;
	stack_init(&c->rx_free, c->rx_base, half);
	stack_init(&c->tx_free, c->tx_base, half);
}

/* The largest power of two not above n: ring sizes must be one. */
static __u32 pow2_floor(__u32 n)
{
	__u32 p = 1;

	while (p * 2 <= n)
		p *= 2;
	return p;
}

static void setup_rings(struct ctx *c)
{
	struct xdp_mmap_offsets off;
	socklen_t len = sizeof(off);
	__u32 fq = pow2_floor(c->o->nframes / 2), rq = RING_SIZE;

	if (fq > RING_SIZE)
		fq = RING_SIZE;
	c->ring_size = fq;
	set_opt(c->fd, SOL_XDP, XDP_UMEM_FILL_RING, &fq, sizeof(fq),
		"setsockopt XDP_UMEM_FILL_RING");
	set_opt(c->fd, SOL_XDP, XDP_UMEM_COMPLETION_RING, &fq, sizeof(fq),
		"setsockopt XDP_UMEM_COMPLETION_RING");
	set_opt(c->fd, SOL_XDP, XDP_RX_RING, &rq, sizeof(rq),
		"setsockopt XDP_RX_RING");
	set_opt(c->fd, SOL_XDP, XDP_TX_RING, &rq, sizeof(rq),
		"setsockopt XDP_TX_RING");
	if (getsockopt(c->fd, SOL_XDP, XDP_MMAP_OFFSETS, &off, &len))
		die("getsockopt XDP_MMAP_OFFSETS");
	map_ring(c, &c->fill, &off.fr, fq, sizeof(__u64),
		 XDP_UMEM_PGOFF_FILL_RING, "fill");
	map_ring(c, &c->comp, &off.cr, fq, sizeof(__u64),
		 XDP_UMEM_PGOFF_COMPLETION_RING, "completion");
	map_ring(c, &c->rx, &off.rx, rq, sizeof(struct xdp_desc),
		 XDP_PGOFF_RX_RING, "rx");
	map_ring(c, &c->tx, &off.tx, rq, sizeof(struct xdp_desc),
		 XDP_PGOFF_TX_RING, "tx");
}

/* Busy polling is an optimisation: without it the loops still work. */
static void setup_busy_poll(struct ctx *c)
{
	int one = 1, usecs = c->o->busy_poll, budget = BATCH;

	if (!usecs)
		return;
	if (setsockopt(c->fd, SOL_SOCKET, SO_PREFER_BUSY_POLL, &one, sizeof(one)))
		fprintf(stderr, "xsk_tool: warning: SO_PREFER_BUSY_POLL: %s\n", strerror(errno));
	if (setsockopt(c->fd, SOL_SOCKET, SO_BUSY_POLL, &usecs, sizeof(usecs)))
		fprintf(stderr, "xsk_tool: warning: SO_BUSY_POLL: %s\n", strerror(errno));
	if (setsockopt(c->fd, SOL_SOCKET, SO_BUSY_POLL_BUDGET, &budget, sizeof(budget)))
		fprintf(stderr, "xsk_tool: warning: SO_BUSY_POLL_BUDGET: %s\n", strerror(errno));
}

/*
 * A socket closed just before (the previous run) frees the queue from a
 * work item, a moment later: until then bind says EBUSY.
 */
static int bind_retry(int fd, struct sockaddr_xdp *sxdp)
{
	int tries = 200;

	while (bind(fd, (struct sockaddr *)sxdp, sizeof(*sxdp))) {
		if (errno != EBUSY || !--tries || stop)
			return -1;
		usleep(10000);
	}
	return 0;
}

static void bind_socket(struct ctx *c)
{
	struct sockaddr_xdp sxdp = {};
	struct xdp_options xo;
	socklen_t len = sizeof(xo);

	sxdp.sxdp_family = AF_XDP;
	sxdp.sxdp_ifindex = c->o->ifindex;
	sxdp.sxdp_queue_id = c->o->queue;
	sxdp.sxdp_flags = c->o->bind_flags;
	if (c->o->need_wakeup)
		sxdp.sxdp_flags |= XDP_USE_NEED_WAKEUP;
	if (bind_retry(c->fd, &sxdp)) {
		if (c->o->bind_flags & XDP_ZEROCOPY)
			fprintf(stderr, "xsk_tool: bind with XDP_ZEROCOPY to %s queue %u: %s (zero-copy refused)\n",
				c->o->ifname, c->o->queue, strerror(errno));
		else
			fprintf(stderr, "xsk_tool: bind to %s queue %u: %s\n",
				c->o->ifname, c->o->queue, strerror(errno));
		exit(2);
	}
	if (getsockopt(c->fd, SOL_XDP, XDP_OPTIONS, &xo, &len))
		die("getsockopt XDP_OPTIONS");
	c->zerocopy = !!(xo.flags & XDP_OPTIONS_ZEROCOPY);
}

static void setup_socket(struct ctx *c)
{
	c->fd = socket(AF_XDP, SOCK_RAW, 0);
	if (c->fd < 0)
		die("socket(AF_XDP)");
	setup_umem(c);
	setup_rings(c);
	setup_busy_poll(c);
	/* Buffers before bind: a driver may fill its rx ring at bind time. */
	refill(c);
	bind_socket(c);
}

/* ---- XDP program ---- */

static void detach_prog(struct ctx *c)
{
	LIBBPF_OPTS(bpf_xdp_attach_opts, opts, .old_prog_fd = c->prog_fd);
	int err;

	if (!c->attached || c->o->keep_prog)
		return;
	/* old_prog_fd: leave alone a program someone put there since. */
	err = bpf_xdp_detach(c->o->ifindex, c->o->xdp_mode, &opts);
	if (err)
		fprintf(stderr, "xsk_tool: warning: detach from %s: %s\n",
			c->o->ifname, strerror(-err));
	c->attached = false;
}

static int load_prog(struct ctx *c)
{
	struct bpf_program *prog;
	struct bpf_map *map;
	__u32 key = c->o->queue;
	int err;

	c->obj = bpf_object__open_file(c->o->obj_path, NULL);
	if (!c->obj)
		die(c->o->obj_path);
	err = bpf_object__load(c->obj);
	if (err) {
		fprintf(stderr, "xsk_tool: loading %s: %s\n", c->o->obj_path, strerror(-err));
		return -1;
	}
	prog = bpf_object__find_program_by_name(c->obj, "xsk_redirect");
	map = bpf_object__find_map_by_name(c->obj, "xsks");
	if (!prog || !map) {
		fprintf(stderr, "xsk_tool: %s: no xsk_redirect program or xsks map\n",
			c->o->obj_path);
		return -1;
	}
	c->prog_fd = bpf_program__fd(prog);
	/* The socket goes in first so no frame of the queue passes by it. */
	err = bpf_map_update_elem(bpf_map__fd(map), &key, &c->fd, 0);
	if (err) {
		fprintf(stderr, "xsk_tool: xsks[%u] = socket: %s\n", key, strerror(-err));
		return -1;
	}
	err = bpf_xdp_attach(c->o->ifindex, c->prog_fd, c->o->xdp_mode, NULL);
	if (err) {
		fprintf(stderr, "xsk_tool: attaching xsk_redirect to %s (%s mode): %s\n",
			c->o->ifname,
			c->o->xdp_mode == XDP_FLAGS_SKB_MODE ? "generic" : "native",
			strerror(-err));
		return -1;
	}
	c->attached = true;
	return 0;
}

/* ---- frames ---- */

static __u16 ip_csum(const struct iphdr *ip)
{
	const __u16 *w = (const __u16 *)ip;
	__u32 sum = 0;
	unsigned int i;

	for (i = 0; i < sizeof(*ip) / 2; i++)
		sum += w[i];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

/*
 * Ethernet/IPv4/UDP, the payload a sequence number then bytes counting
 * up from 0. Headers are built aligned and copied in: in the frame the IP
 * header sits at offset 14.
 */
static void build_frame(const struct opts *o, unsigned char *p)
{
	struct ethhdr eth;
	struct iphdr ip = {};
	struct udphdr udp = {};
	unsigned int i, off = sizeof(eth) + sizeof(ip) + sizeof(udp);

	memcpy(eth.h_dest, o->dst_mac, ETH_ALEN);
	memcpy(eth.h_source, o->src_mac, ETH_ALEN);
	eth.h_proto = htons(ETH_P_IP);
	ip.version = 4;
	ip.ihl = 5;
	ip.tot_len = htons(o->size - sizeof(eth));
	ip.ttl = 64;
	ip.protocol = IPPROTO_UDP;
	ip.saddr = o->src_ip.s_addr;
	ip.daddr = o->dst_ip.s_addr;
	ip.check = ip_csum(&ip);
	udp.source = htons(UDP_SPORT);
	udp.dest = htons(o->port);
	udp.len = htons(o->size - sizeof(eth) - sizeof(ip));
	memcpy(p, &eth, sizeof(eth));
	memcpy(p + sizeof(eth), &ip, sizeof(ip));
	memcpy(p + sizeof(eth) + sizeof(ip), &udp, sizeof(udp));
	memset(p + off, 0, 4);
	for (i = off + 4; i < o->size; i++)
		p[i] = i - off - 4;
}

static void set_seq(unsigned char *p, __u32 seq)
{
	__u32 be = htonl(seq);

	memcpy(p + sizeof(struct ethhdr) + sizeof(struct iphdr) +
	       sizeof(struct udphdr), &be, sizeof(be));
}

static void get_if_mac(struct opts *o)
{
	struct ifreq ifr = {};
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		die("socket(AF_INET)");
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", o->ifname);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr))
		die("SIOCGIFHWADDR");
	memcpy(o->src_mac, ifr.ifr_hwaddr.sa_data, ETH_ALEN);
	close(fd);
}

/* Write the template into every tx chunk once: per frame only the seq. */
static void prepare_tx(struct ctx *c)
{
	__u32 i;

	if (!c->o->src_mac_set)
		get_if_mac(c->o);
	for (i = 0; i < c->tx_free.n; i++)
		build_frame(c->o, c->umem + c->tx_free.addr[i]);
}

/* ---- output ---- */

static void print_line(struct ctx *c)
{
	unsigned long long us = c->t_first ? c->t_last - c->t_first : 0;
	unsigned long long n = c->o->mode == TXPUSH ? c->completed : c->rx_cnt;

	printf("xsk_tool mode=%s rx=%llu tx=%llu completed=%llu rx_bytes=%llu elapsed_ms=%llu pps=%llu zerocopy=%d\n",
	       mode_names[c->o->mode], c->rx_cnt, c->tx_cnt, c->completed,
	       c->rx_bytes, us / 1000, us ? n * 1000000 / us : 0, c->zerocopy);
	fflush(stdout);
}

static void print_stats(struct ctx *c)
{
	struct xdp_statistics st = {};
	socklen_t len = sizeof(st);

	if (getsockopt(c->fd, SOL_XDP, XDP_STATISTICS, &st, &len)) {
		fprintf(stderr, "xsk_tool: getsockopt XDP_STATISTICS: %s\n", strerror(errno));
		return;
	}
	printf("xsk_stats rx_dropped=%llu rx_invalid_descs=%llu tx_invalid_descs=%llu rx_ring_full=%llu rx_fill_ring_empty_descs=%llu tx_ring_empty_descs=%llu\n",
	       st.rx_dropped, st.rx_invalid_descs, st.tx_invalid_descs,
	       st.rx_ring_full, st.rx_fill_ring_empty_descs, st.tx_ring_empty_descs);
	fflush(stdout);
}

/* Once per second with -P; true when the run's time is up. */
static bool tick(struct ctx *c, unsigned long long now)
{
	if (c->o->periodic && now >= c->t_print) {
		print_line(c);
		c->t_print += 1000000;
	}
	return now - c->t_start >= c->o->seconds * 1000000ULL;
}

/* ---- the loops ---- */

static void kick_tx(struct ctx *c)
{
	if (c->o->need_wakeup && !c->o->busy_poll && !ring_needs_wakeup(&c->tx))
		return;
	if (sendto(c->fd, NULL, 0, MSG_DONTWAIT, NULL, 0) >= 0)
		return;
	/* The kernel is busy or short of buffers: the next kick retries. */
	if (errno == EAGAIN || errno == EBUSY || errno == ENOBUFS ||
	    errno == ENETDOWN || errno == EINTR)
		return;
	fprintf(stderr, "xsk_tool: sendto (tx kick): %s\n", strerror(errno));
	c->failed = true;
	stop = 1;
}

/*
 * Nothing arrived: drive the driver if it needs it, and sleep a little in
 * poll() rather than spin when idle (the CPU may be shared).
 */
static void wait_rx(struct ctx *c, unsigned long long now)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	bool idle = now - c->t_active > IDLE_US;

	if (c->o->busy_poll && !idle) {
		recvfrom(c->fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
		return;
	}
	if (c->o->need_wakeup && !idle && !ring_needs_wakeup(&c->fill))
		return;
	if (poll(&pfd, 1, 1) < 0 && errno != EINTR) {
		fprintf(stderr, "xsk_tool: poll: %s\n", strerror(errno));
		c->failed = true;
		stop = 1;
	}
}

/* At most how many more frames to receive (-n). */
static __u32 rx_budget(struct ctx *c)
{
	unsigned long long left;

	if (!c->o->frames || c->o->mode == TXPUSH)
		return BATCH;
	left = c->o->frames - c->rx_cnt;
	return left < BATCH ? left : BATCH;
}

static void note_rx(struct ctx *c, __u32 n, unsigned long long now)
{
	if (!c->t_first)
		c->t_first = now;
	c->t_last = now;
	c->t_active = now;
	c->rx_cnt += n;
}

/* Receive a batch and give the chunks straight back. */
static __u32 rx_drop(struct ctx *c, unsigned long long now)
{
	__u32 n = cons_peek(&c->rx, rx_budget(c)), i;
	struct xdp_desc *d;

	for (i = 0; i < n; i++) {
		d = desc_ring(&c->rx, c->rx.cons + i);
		c->rx_bytes += d->len;
		chunk_put(c, &c->rx_free, c->rx_base, d->addr);
	}
	if (!n)
		return 0;
	cons_release(&c->rx, n);
	note_rx(c, n, now);
	refill(c);
	return n;
}

static void swap_macs(unsigned char *p)
{
	unsigned char tmp[ETH_ALEN];

	memcpy(tmp, p, ETH_ALEN);
	memcpy(p, p + ETH_ALEN, ETH_ALEN);
	memcpy(p + ETH_ALEN, tmp, ETH_ALEN);
}

static bool rx_desc_ok(struct ctx *c, const struct xdp_desc *d)
{
	__u64 off = d->addr & (FRAME_SIZE - 1);

	return d->addr < c->tx_base && off + d->len <= FRAME_SIZE &&
	       d->len >= 2 * ETH_ALEN;
}

/* Receive a batch and queue it on tx in place, as far as tx has room. */
static __u32 fwd(struct ctx *c, unsigned long long now)
{
	__u32 n = cons_peek(&c->rx, rx_budget(c)), i, q = 0;
	struct xdp_desc *d, *t;

	if (n)
		n = prod_reserve(&c->tx, n);
	for (i = 0; i < n; i++) {
		d = desc_ring(&c->rx, c->rx.cons + i);
		c->rx_bytes += d->len;
		if (!rx_desc_ok(c, d)) {
			chunk_put(c, &c->rx_free, c->rx_base, d->addr);
			continue;
		}
		swap_macs(c->umem + d->addr);
		t = desc_ring(&c->tx, c->tx.prod + q++);
		t->addr = d->addr;
		t->len = d->len;
		t->options = 0;
	}
	if (!n)
		return 0;
	cons_release(&c->rx, n);
	note_rx(c, n, now);
	prod_submit(&c->tx, q);
	c->tx_cnt += q;
	refill(c);
	return n;
}

/* Take back sent chunks into s. */
static __u32 reap(struct ctx *c, struct stack *s, __u64 base,
		  unsigned long long now)
{
	__u32 n = cons_peek(&c->comp, c->ring_size), i;

	for (i = 0; i < n; i++)
		chunk_put(c, s, base, *addr_ring(&c->comp, c->comp.cons + i));
	if (!n)
		return 0;
	cons_release(&c->comp, n);
	c->completed += n;
	if (c->o->mode == TXPUSH)	/* the rx modes time their rx */
		c->t_last = now;
	c->t_active = now;
	return n;
}

/*
 * -r: how many frames the rate allows queued by @now since the start; the
 * receiver in the bed may share the host's CPUs, and the hub drops,
 * uncounted, what a port whose ring ran dry cannot take.
 */
static unsigned long long rate_allows(struct ctx *c, unsigned long long now)
{
	return (now - c->t_first) * c->o->rate / 1000000 + BATCH;
}

/* Queue up to a batch of the frames still to send. */
static __u32 push(struct ctx *c, unsigned long long now)
{
	unsigned long long left = c->o->frames - c->tx_cnt;
	__u32 want = left < BATCH ? left : BATCH, n, i;
	struct xdp_desc *t;

	if (c->o->rate) {
		unsigned long long allowed = rate_allows(c, now);

		if (allowed < c->tx_cnt + want)
			want = allowed > c->tx_cnt ? allowed - c->tx_cnt : 0;
	}
	if (want > c->tx_free.n)
		want = c->tx_free.n;
	n = prod_reserve(&c->tx, want);
	for (i = 0; i < n; i++) {
		t = desc_ring(&c->tx, c->tx.prod + i);
		t->addr = c->tx_free.addr[--c->tx_free.n];
		t->len = c->o->size;
		t->options = 0;
		set_seq(c->umem + t->addr, c->tx_cnt + i);
	}
	if (n) {
		prod_submit(&c->tx, n);
		c->tx_cnt += n;
	}
	return n;
}

/* -I: frames came, then none for idle_ms. */
static bool rx_went_quiet(struct ctx *c, unsigned long long now)
{
	return c->o->idle_ms && c->t_first &&
	       now - c->t_last >= c->o->idle_ms * 1000ULL;
}

/*
 * -Z: an application that stopped giving buffers back while its socket
 * stays bound. The driver must not spin on the empty fill ring.
 */
static void stall_until_end(struct ctx *c)
{
	while (!stop && !tick(c, now_us()))
		poll(NULL, 0, 100);
}

static int run_rxdrop(struct ctx *c)
{
	unsigned long long now;

	while (!stop) {
		if (c->o->stall && c->rx_cnt) {
			stall_until_end(c);
			return 0;
		}
		now = now_us();
		if (tick(c, now) || (c->o->frames && c->rx_cnt >= c->o->frames) ||
		    rx_went_quiet(c, now))
			break;
		if (!rx_drop(c, now))
			wait_rx(c, now);
	}
	return c->o->frames && c->rx_cnt < c->o->frames;
}

/*
 * Frames forwarded just before the end may still sit on the tx ring (copy
 * mode sends only when kicked): give them a moment to go out.
 */
static void drain_tx(struct ctx *c)
{
	unsigned long long now, end = now_us() + 500000;

	while (!c->failed && c->tx_cnt != c->completed) {
		now = now_us();
		if (now >= end)
			break;
		if (!reap(c, &c->rx_free, c->rx_base, now)) {
			kick_tx(c);
			poll(NULL, 0, 1);
		}
	}
}

static int run_l2fwd(struct ctx *c)
{
	unsigned long long now;
	__u32 n;

	while (!stop) {
		now = now_us();
		if (tick(c, now) || (c->o->frames && c->rx_cnt >= c->o->frames))
			break;
		if (reap(c, &c->rx_free, c->rx_base, now))
			refill(c);
		n = fwd(c, now);
		/* Copy mode sends only inside sendto(), a few dozen at a time. */
		if (c->tx_cnt != c->completed)
			kick_tx(c);
		if (!n)
			wait_rx(c, now);
	}
	drain_tx(c);
	return c->o->frames && c->rx_cnt < c->o->frames;
}

static void report_outstanding(struct ctx *c)
{
	__u32 on_ring = c->tx.prod - __atomic_load_n(c->tx.consumer, __ATOMIC_ACQUIRE);

	fprintf(stderr, "xsk_tool: %s after %.1f s: %llu of %llu frames not completed (%u not taken from the tx ring)\n",
		stop ? "stopped" : "timeout", (now_us() - c->t_start) / 1e6,
		c->o->frames - c->completed, c->o->frames, on_ring);
}

static int run_txpush(struct ctx *c)
{
	unsigned long long now;
	__u32 done;

	prepare_tx(c);
	c->t_first = c->t_last = c->t_active = now_us();
	while (!stop && c->completed < c->o->frames) {
		now = now_us();
		if (tick(c, now))
			break;
		done = reap(c, &c->tx_free, c->tx_base, now);
		done += push(c, now);
		/* A socket on the queue takes its frames: drop them here. */
		rx_drop(c, now);
		/*
		 * -K: after the first kick the driver must keep sending on
		 * its own (its completions raise its polls).
		 */
		if (c->tx_cnt != c->completed && !(c->o->kick_once && c->kicked)) {
			kick_tx(c);
			c->kicked = true;
		}
		if (done)
			c->t_active = now;
		else if (now - c->t_active > IDLE_US)
			poll(NULL, 0, 1);
	}
	if (c->completed == c->o->frames)
		return 0;
	report_outstanding(c);
	return 1;
}

static void setup_signals(void)
{
	struct sigaction sa = {};

	/* No SA_RESTART: a signal must end a poll() at once. */
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int main(int argc, char **argv)
{
	struct opts o;
	struct ctx c = {};
	int ret;

	parse_args(argc, argv, &o);
	c.o = &o;
	setup_signals();
	setup_socket(&c);
	if (load_prog(&c)) {
		detach_prog(&c);
		return 2;
	}
	fprintf(stderr, "xsk_tool: %s queue %u %s, %s mode%s%s\n", o.ifname,
		o.queue, mode_names[o.mode], c.zerocopy ? "zero-copy" : "copy",
		o.need_wakeup ? ", need_wakeup" : "",
		o.busy_poll ? ", busy poll" : "");
	c.t_start = c.t_active = now_us();
	c.t_print = c.t_start + 1000000;
	if (o.mode == RXDROP)
		ret = run_rxdrop(&c);
	else if (o.mode == L2FWD)
		ret = run_l2fwd(&c);
	else
		ret = run_txpush(&c);
	print_line(&c);
	print_stats(&c);
	if (c.bad_addr)
		fprintf(stderr, "xsk_tool: %llu descriptors with addresses outside their umem half or already free\n",
			c.bad_addr);
	detach_prog(&c);
	bpf_object__close(c.obj);
	close(c.fd);
	return c.failed ? 2 : ret;
}
