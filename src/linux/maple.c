/*
 * The maple tree (lib/maple_tree.c, 6.1+) as it lies in memory, read
 * only.  An entry pointing at a node is tagged: bits 0-1 are 2 (an
 * "internal" entry) and it is above 4096, bits 3-6 the node's type;
 * masking the low bits (the node's size, 256) gives the node.  A node
 * of type range_64 or arange_64 has pivots p[0..n-1] and n+1 slots: slot
 * i covers (p[i-1], p[i]], the last slot up to the node's own maximum;
 * a pivot of 0 after the first, or one equal to the maximum, ends the
 * node's data.  Dense nodes hold one index per slot.  Leaves are dense
 * and leaf_64; their slots are the entries (for an mm, VMAs); small
 * internal entries in a leaf are the tree's own markers, not entries.
 *
 * Hostile trees: each child's range must lie inside its parent's slot and
 * pivots must rise, a node already on the path down is a loop, the
 * height is bounded by the tree's own maximum (31), and the nodes read
 * by a budget, so a tree that shares subtrees cannot make the walk long.
 */
#include "../lib/err.h"
#include "vma.h"

#include <string.h>

enum maple_type { DENSE, LEAF_64, RANGE_64, ARANGE_64, NTYPES };

#define MAPLE_HEIGHT_MAX 31
#define NODES_MAX (UINT32_C(1) << 18)

static const char *const type_names[NTYPES] = {
	"dense", "leaf_64", "range_64", "arange_64",
};

struct walk {
	const struct vma_reader *r;
	maple_fn fn;
	void *arg;
	uint64_t path[MAPLE_HEIGHT_MAX + 1];
	uint32_t nodes;
};

/* The root's entry is tagged internal (bits 0-1: 2), the children's
 * in a node are not (bit 2 set: MAPLE_ENODE_NULL). */
static bool is_root_node(uint64_t entry)
{
	return (entry & 3) == 2 && entry > 4096;
}

static bool is_child_node(uint64_t entry)
{
	return (entry & 3) == 0 && entry > 4096;
}

/* A tree's own marker (XA_ZERO_ENTRY, a retry entry): no entry. */
static bool is_marker(uint64_t entry)
{
	return (entry & 3) == 2 && entry <= 4096;
}

static enum pgw_status node(struct walk *w, uint64_t enode, uint64_t min,
			    uint64_t max, unsigned depth,
			    struct pgw_err *err);

/* Slot i's entry or child, covering [lo, hi]. */
static enum pgw_status slot(struct walk *w, enum maple_type type,
			    uint64_t entry, uint64_t lo, uint64_t hi,
			    unsigned depth, struct pgw_err *err)
{
	if (!entry || (type <= LEAF_64 && is_marker(entry)))
		return PGW_OK;
	if (type <= LEAF_64) {
		int stop = w->fn(w->arg, entry, lo, hi);
		return stop ? pgw_err_set(err, PGW_E_STOPPED, "stopped") :
			      PGW_OK;
	}
	if (!is_child_node(entry))
		return pgw_err_set(err, PGW_E_FORMAT,
				   "maple tree: node 0x%llx: slot for "
				   "[0x%llx, 0x%llx] holds 0x%llx, no node",
				   (unsigned long long)w->path[depth],
				   (unsigned long long)lo,
				   (unsigned long long)hi,
				   (unsigned long long)entry);
	return node(w, entry, lo, hi, depth + 1, err);
}

static enum pgw_status node(struct walk *w, uint64_t enode, uint64_t min,
			    uint64_t max, unsigned depth,
			    struct pgw_err *err)
{
	const struct vma_layout *l = &w->r->lay;
	uint64_t va = enode & ~(uint64_t)(l->node_size - 1);
	enum maple_type type = (enum maple_type)((enode >> 3) & 15);
	uint8_t buf[4096];
	enum pgw_status st;

	if (type >= NTYPES)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "maple tree: entry 0x%llx: node type %u "
				   "is none of the four",
				   (unsigned long long)enode, (unsigned)type);
	if (depth > MAPLE_HEIGHT_MAX)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "maple tree: deeper than %u levels at node "
				   "0x%llx", MAPLE_HEIGHT_MAX,
				   (unsigned long long)va);
	for (unsigned d = 0; d < depth; d++)
		if (w->path[d] == va)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "maple tree loops: node 0x%llx is "
					   "its own ancestor",
					   (unsigned long long)va);
	if (++w->nodes > NODES_MAX)
		return pgw_err_set(err, PGW_E_LIMIT,
				   "maple tree: more than %u nodes read "
				   "(subtrees shared?)", NODES_MAX);
	w->path[depth] = va;
	if ((st = pgw_read_virt(w->r->kernel, va, buf, l->node_size, NULL,
				err)) != PGW_OK)
		return pgw_err_prefix(err, "maple tree: %s node 0x%llx",
				      type_names[type],
				      (unsigned long long)va);
	/* A node being freed points its parent at itself (ma_dead_node). */
	if ((vma_le(buf, l->ptr) & ~(uint64_t)(l->node_size - 1)) == va)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "maple tree: node 0x%llx is dead (its "
				   "parent is itself)",
				   (unsigned long long)va);
	if (type == DENSE) {
		for (uint32_t i = 0; i < l->dense_slots && min + i <= max &&
				     min + i >= min; i++)
			if ((st = slot(w, type, vma_le(buf + l->dense_slot +
							       i * l->ptr,
						       l->ptr),
				       min + i, min + i, depth, err)) != PGW_OK)
				return st;
		return PGW_OK;
	}
	bool arange = type == ARANGE_64;
	uint32_t pivot = arange ? l->a64_pivot : l->r64_pivot;
	uint32_t npiv = arange ? l->a64_pivots : l->r64_pivots;
	uint32_t sl = arange ? l->a64_slot : l->r64_slot;
	uint64_t lo = min;
	for (uint32_t i = 0; i <= npiv; i++) {
		uint64_t hi = i < npiv ? vma_le(buf + pivot + i * l->ptr,
						l->ptr) : max;
		if (i > 0 && hi == 0)
			break;
		if (hi < lo || hi > max)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "maple tree: %s node 0x%llx: pivot "
					   "%u is 0x%llx, outside [0x%llx, "
					   "0x%llx]", type_names[type],
					   (unsigned long long)va, i,
					   (unsigned long long)hi,
					   (unsigned long long)lo,
					   (unsigned long long)max);
		if ((st = slot(w, type, vma_le(buf + sl + i * l->ptr, l->ptr),
			       lo, hi, depth, err)) != PGW_OK)
			return st;
		if (hi == max)
			break;
		lo = hi + 1;
	}
	return PGW_OK;
}

enum pgw_status maple_walk(const struct vma_reader *r, uint64_t root,
			   maple_fn fn, void *arg, struct pgw_err *err)
{
	struct walk w = { .r = r, .fn = fn, .arg = arg };
	uint64_t max = r->lay.ptr == 8 ? UINT64_MAX : UINT32_MAX;

	if (r->lay.node_size == 0 || r->lay.node_size > 4096)
		return pgw_err_set(err, PGW_E_ARG, "maple tree: no node layout");
	if (!root)
		return PGW_OK;
	if (!is_root_node(root))   /* one entry at index 0 */
		return is_marker(root) || !fn(arg, root, 0, 0) ? PGW_OK :
			pgw_err_set(err, PGW_E_STOPPED, "stopped");
	return node(&w, root, 0, max, 0, err);
}
