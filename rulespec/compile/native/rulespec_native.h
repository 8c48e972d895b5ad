/* The native backend's shared declarations: what a generated game module defines (a
 * table of functions over a flat state of 64-bit cells) and the helpers its code calls.
 *
 * A rule that cannot be evaluated (an index out of range, a division by zero, an
 * overflow the Python backend would not have) jumps to the caller's recovery point:
 * every entry point in rulespec_native.c sets one, and reports the error, and the Python
 * side then asks the Python backend, whose answer (or exception) is the one that counts.
 */
#ifndef RULESPEC_NATIVE_H
#define RULESPEC_NATIVE_H

#include <setjmp.h>
#include <stdint.h>
#include <string.h>

typedef int64_t V;

#define RS_CHANCE (-1)
#define RS_TERMINAL (-4)
/* a cell an observer does not see */
#define RS_HIDDEN INT64_MIN

typedef struct rs_ctx {
    jmp_buf *jb;         /* where a rule error goes (two readings played together share one) */
    const V *I;          /* the reading: the option of each interpretation point */
    int64_t *branch;     /* coverage: runs of each effect branch (NULL: not counted) */
} rs_ctx;

/* legal keys (``width`` ints each) and, for chance outcomes, their weights */
typedef struct rs_keys {
    int32_t *k;
    V *w;
    int32_t n;
} rs_keys;

typedef struct rs_game {
    int32_t size;          /* cells */
    int32_t width;         /* ints per action key: 1 + the most parameters of an action */
    int32_t n_actions, n_inv, n_cons, n_tie, n_interp, n_branch;
    int32_t min_players, max_players, max_steps, horizon;   /* horizon -1: none */
    int32_t capacity;      /* most keys a legal list can hold */
    int32_t shared_ties;   /* 1: the rules say tied players share the win */
    const int32_t *n_params, *n_pre;
    const int8_t *chance;  /* per action */
    const V *param_lo, *param_hi;   /* per action, width - 1 each; hi -1: the players */
    const int8_t *tie_lower_wins;
    const V *cell_lo, *cell_hi;     /* bounds per cell (hi INT64_MAX: none) */
    const int8_t *cell_bool;
    void (*initial)(rs_ctx *C, V n, V *s);
    int (*terminal)(rs_ctx *C, const V *s);
    V (*current_player)(rs_ctx *C, const V *s);
    void (*legal)(rs_ctx *C, const V *s, rs_keys *out);
    void (*chance_weights)(rs_ctx *C, const V *s, rs_keys *out);
    int (*step)(rs_ctx *C, const V *t, const int32_t *key, V *s);
    void (*apply)(rs_ctx *C, const V *t, const int32_t *key, V *s);
    int (*pre)(rs_ctx *C, int32_t i, int32_t j, const V *s, const int32_t *params);
    void (*scores)(rs_ctx *C, const V *s, V *out);
    V (*tie)(rs_ctx *C, int32_t k, const V *s, V p);
    int (*inv)(rs_ctx *C, int32_t k, const V *s);
    V (*cons)(rs_ctx *C, int32_t k, const V *s);
    void (*observe)(rs_ctx *C, const V *s, V p, V *out);
} rs_game;

/* --- helpers of the generated code (C is always in scope) ------------------------- */
#define RS_ERR(code) longjmp(*C->jb, (code))

static inline V rs_ck(rs_ctx *C, V i, V n) {
    if ((uint64_t)i >= (uint64_t)n) RS_ERR(1);
    return i;
}
static inline V rs_add(rs_ctx *C, V a, V b) {
    V r;
    if (__builtin_add_overflow(a, b, &r)) RS_ERR(2);
    return r;
}
static inline V rs_sub(rs_ctx *C, V a, V b) {
    V r;
    if (__builtin_sub_overflow(a, b, &r)) RS_ERR(2);
    return r;
}
static inline V rs_mul(rs_ctx *C, V a, V b) {
    V r;
    if (__builtin_mul_overflow(a, b, &r)) RS_ERR(2);
    return r;
}
/* Python's floor division and modulo (the sign of the divisor) */
static inline V rs_floordiv(rs_ctx *C, V a, V b) {
    if (b == 0 || (a == INT64_MIN && b == -1)) RS_ERR(3);
    V q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
    return q;
}
static inline V rs_mod(rs_ctx *C, V a, V b) {
    if (b == 0) RS_ERR(3);
    if (b == -1) return 0;
    V r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}
static inline V rs_min(V a, V b) { return a < b ? a : b; }
static inline V rs_max(V a, V b) { return a > b ? a : b; }
static inline V rs_abs(rs_ctx *C, V a) {
    if (a == INT64_MIN) RS_ERR(2);
    return a < 0 ? -a : a;
}
/* a loop over the players: the state's player count must be one the spec allows */
static inline V rs_upto(rs_ctx *C, V hi, V max_hi) {
    if (hi > max_hi) RS_ERR(4);
    return hi;
}

/* --- connectivity (rulespec/ir/closure.py): graphs as neighbour lists ------------- */
typedef struct rs_graph {
    int32_t size;
    const int32_t *start;   /* neighbours of node i: nbr[start[i]] .. nbr[start[i+1]-1] */
    const int32_t *nbr;
} rs_graph;

/* which nodes a search from the member sources reaches (seen[i] set to 1) */
static inline void rs_reach(const rs_graph *g, const unsigned char *m, const int32_t *src,
                            int32_t nsrc, unsigned char *seen, int32_t *stack) {
    int32_t top = 0;
    memset(seen, 0, (size_t)g->size);
    for (int32_t k = 0; k < nsrc; k++) {
        int32_t i = src[k];
        if (m[i] && !seen[i]) { seen[i] = 1; stack[top++] = i; }
    }
    while (top) {
        int32_t i = stack[--top];
        for (int32_t e = g->start[i]; e < g->start[i + 1]; e++) {
            int32_t j = g->nbr[e];
            if (m[j] && !seen[j]) { seen[j] = 1; stack[top++] = j; }
        }
    }
}

static inline int rs_connected(const rs_graph *g, const unsigned char *m, const int32_t *src,
                               int32_t nsrc, const int32_t *dst, int32_t ndst) {
    unsigned char seen[g->size];
    int32_t stack[g->size];
    rs_reach(g, m, src, nsrc, seen, stack);
    for (int32_t k = 0; k < ndst; k++)
        if (seen[dst[k]]) return 1;
    return 0;
}

static inline V rs_component(const rs_graph *g, const unsigned char *m, V start) {
    unsigned char seen[g->size];
    int32_t stack[g->size];
    int32_t s = (int32_t)start;
    rs_reach(g, m, &s, 1, seen, stack);
    V n = 0;
    for (int32_t i = 0; i < g->size; i++) n += seen[i];
    return n;
}

/* the most nodes (labels NULL) or distinct labels 0..n_labels-1 in one group of members */
static inline V rs_largest(rs_ctx *C, const rs_graph *g, const unsigned char *m,
                           const V *labels, V n_labels) {
    unsigned char done[g->size], seen[g->size];
    int32_t stack[g->size];
    unsigned char have[n_labels > 0 ? n_labels : 1];
    V best = 0;
    memset(done, 0, (size_t)g->size);
    for (int32_t start = 0; start < g->size; start++) {
        if (!m[start] || done[start]) continue;
        rs_reach(g, m, &start, 1, seen, stack);
        V size = 0;
        if (labels) memset(have, 0, (size_t)n_labels);
        for (int32_t i = 0; i < g->size; i++) {
            if (!seen[i]) continue;
            done[i] = 1;
            if (!labels) { size++; continue; }
            if (labels[i] < 0 || labels[i] >= n_labels) RS_ERR(5);
            if (!have[labels[i]]) { have[labels[i]] = 1; size++; }
        }
        if (size > best) best = size;
    }
    return best;
}

#endif
