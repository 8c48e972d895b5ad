/* The native backend's runtime: entry points for Python (each sets a recovery point, so
 * that a rule error is reported, never a crash), CPython's random generator (so that a
 * seed plays the same game here as in Python), and whole games played inside C.
 *
 * The drivers mirror Python code exactly, draw for draw:
 *   rs_play      rulespec.runtime.play.play_random / Model.random_action, the greedy
 *                policy, report.coverage's rule-first play, openspiel.leaf_value
 *   rs_check     check.walk.play_checked with the generic properties and the spec's
 *                invariants and conservation laws: it only says "every one held" or
 *                "stop here" (then Python replays the game and says what went wrong)
 *   rs_lockstep  check.impact's lockstep games of two readings
 */
#include "rulespec_native.h"

#include <stdlib.h>

/* ===================================================================================
 * CPython's Mersenne Twister (Modules/_randommodule.c) and the draws of random.py
 * =================================================================================== */
#define MT_N 624
#define MT_M 397

typedef struct rs_rng {
    uint32_t mt[MT_N];
    int32_t index;
} rs_rng;

static uint32_t genrand(rs_rng *r) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    uint32_t *mt = r->mt;
    if (r->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        r->index = 0;
    }
    y = mt[r->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random.Random(seed): init_by_array over the seed's 32-bit words, least significant
 * first (the Python side turns an int or a str seed into those words) */
void rs_rng_seed(rs_rng *r, const uint32_t *key, int32_t n) {
    uint32_t *mt = r->mt;
    mt[0] = 19650218U;
    for (int i = 1; i < MT_N; i++)
        mt[i] = (1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i);
    size_t i = 1, j = 0, k = (MT_N > n ? MT_N : (size_t)n);
    for (; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++; j++;
        if (i >= MT_N) { mt[0] = mt[MT_N - 1]; i = 1; }
        if (j >= (size_t)n) j = 0;
    }
    for (k = MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= MT_N) { mt[0] = mt[MT_N - 1]; i = 1; }
    }
    mt[0] = 0x80000000U;
    r->index = MT_N;
}

/* getstate()[1] / setstate(): the 624 words and the position */
void rs_rng_set(rs_rng *r, const uint32_t *state) {
    memcpy(r->mt, state, sizeof r->mt);
    r->index = (int32_t)state[MT_N];
}

void rs_rng_get(const rs_rng *r, uint32_t *state) {
    memcpy(state, r->mt, sizeof r->mt);
    state[MT_N] = (uint32_t)r->index;
}

rs_rng *rs_rng_new(void) { return calloc(1, sizeof(rs_rng)); }
void rs_rng_copy(rs_rng *dst, const rs_rng *src) { *dst = *src; }
void rs_rng_free(rs_rng *r) { free(r); }

uint64_t rs_getrandbits(rs_rng *r, int k) {
    if (k <= 0) return 0;
    if (k <= 32) return genrand(r) >> (32 - k);
    uint64_t lo = genrand(r);
    uint64_t hi = genrand(r) >> (64 - k);
    return lo | (hi << 32);
}

/* random.Random._randbelow_with_getrandbits */
int64_t rs_randbelow(rs_rng *r, int64_t n) {
    int k = 64 - __builtin_clzll((uint64_t)n);
    uint64_t x = rs_getrandbits(r, k);
    while (x >= (uint64_t)n) x = rs_getrandbits(r, k);
    return (int64_t)x;
}

double rs_random(rs_rng *r) {
    uint32_t a = genrand(r) >> 5, b = genrand(r) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* rng.choices(range(n), [w / total for w in ws])[0]: Model.random_action's draw */
static int32_t choose_by_probability(rs_rng *r, const V *w, int32_t n, double *cum) {
    V total = 0;
    for (int32_t i = 0; i < n; i++) total += w[i];
    double acc = 0.0;
    for (int32_t i = 0; i < n; i++) {
        acc = i ? acc + (double)w[i] / (double)total : (double)w[i] / (double)total;
        cum[i] = acc;
    }
    double x = rs_random(r) * (cum[n - 1] + 0.0);
    int32_t lo = 0, hi = n - 1;
    while (lo < hi) {
        int32_t mid = (lo + hi) / 2;
        if (x < cum[mid]) hi = mid; else lo = mid + 1;
    }
    return lo;
}

/* rng.choices(legal, [weight of each])[0] (integer weights, their running sums in
 * ``cum``): the lockstep games' and rollouts' draw */
static int32_t choose_by_weight(rs_rng *r, const V *w, int32_t n, V *cum) {
    V acc = 0;
    for (int32_t i = 0; i < n; i++) { acc += w[i]; cum[i] = acc; }
    double x = rs_random(r) * ((double)acc + 0.0);
    int32_t lo = 0, hi = n - 1;
    while (lo < hi) {
        int32_t mid = (lo + hi) / 2;
        if (x < (double)cum[mid]) hi = mid; else lo = mid + 1;
    }
    return lo;
}

/* ===================================================================================
 * hash(state.values) as CPython computes it (a tuple of ints and bools)
 * =================================================================================== */
int64_t rs_tuple_hash(const V *s, int32_t n) {
    const uint64_t P1 = 11400714785074694791ULL, P2 = 14029467366897019727ULL,
                   P5 = 2870177450012600261ULL, MOD = (1ULL << 61) - 1;
    uint64_t acc = P5;
    for (int32_t i = 0; i < n; i++) {
        V v = s[i];
        uint64_t a = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
        int64_t h = (int64_t)(a % MOD);
        if (v < 0) h = -h;
        if (h == -1) h = -2;
        acc += (uint64_t)h * P2;
        acc = (acc << 31) | (acc >> 33);
        acc *= P1;
    }
    acc += (uint64_t)n ^ (P5 ^ 3527539UL);
    if (acc == (uint64_t)-1) return 1546275796;
    return (int64_t)acc;
}

static int32_t py_mod(int64_t a, int32_t n) {
    int64_t r = a % n;
    return (int32_t)(r < 0 ? r + n : r);
}

/* ===================================================================================
 * entry points for Python: 0 (or a value) when the rules evaluate, -1 when they raise
 * =================================================================================== */
#define ENTER(I_) jmp_buf jb_; rs_ctx ctx_ = {&jb_, (I_), NULL}; rs_ctx *C = &ctx_; \
    if (setjmp(jb_)) return -1

int rs_initial(const rs_game *g, const V *I, V n, V *out) { ENTER(I); g->initial(C, n, out); return 0; }
int rs_terminal(const rs_game *g, const V *I, const V *s) { ENTER(I); return g->terminal(C, s); }
int rs_current_player(const rs_game *g, const V *I, const V *s, V *out) {
    ENTER(I); *out = g->current_player(C, s); return 0;
}
int rs_legal(const rs_game *g, const V *I, const V *s, int32_t *k, V *w, int32_t *n) {
    ENTER(I); rs_keys out = {k, w, 0}; g->legal(C, s, &out); *n = out.n; return 0;
}
int rs_chance_weights(const rs_game *g, const V *I, const V *s, int32_t *k, V *w, int32_t *n) {
    ENTER(I); rs_keys out = {k, w, 0}; g->chance_weights(C, s, &out); *n = out.n; return 0;
}
int rs_step(const rs_game *g, const V *I, const V *s, const int32_t *key, V *out) {
    ENTER(I); return g->step(C, s, key, out);
}
int rs_apply(const rs_game *g, const V *I, const V *s, const int32_t *key, V *out) {
    ENTER(I); g->apply(C, s, key, out); return 0;
}
int rs_pre(const rs_game *g, const V *I, int32_t i, int32_t j, const V *s, const int32_t *params) {
    ENTER(I); return g->pre(C, i, j, s, params);
}
int rs_scores(const rs_game *g, const V *I, const V *s, V *out) { ENTER(I); g->scores(C, s, out); return 0; }
int rs_tie(const rs_game *g, const V *I, int32_t k, const V *s, V p, V *out) {
    ENTER(I); *out = g->tie(C, k, s, p); return 0;
}
int rs_inv(const rs_game *g, const V *I, int32_t k, const V *s) { ENTER(I); return g->inv(C, k, s); }
int rs_cons(const rs_game *g, const V *I, int32_t k, const V *s, V *out) {
    ENTER(I); *out = g->cons(C, k, s); return 0;
}
int rs_observe(const rs_game *g, const V *I, const V *s, V p, V *out) {
    ENTER(I); g->observe(C, s, p, out); return 0;
}

/* ===================================================================================
 * the connectivity primitives of rulespec_native.h, callable from Python (the agreement
 * test holds them to rulespec/ir/closure.py); the largest group: -1 for a bad label
 * =================================================================================== */
int rs_closure_connected(int32_t size, const int32_t *start, const int32_t *nbr,
                         const unsigned char *m, const int32_t *src, int32_t nsrc,
                         const int32_t *dst, int32_t ndst) {
    rs_graph g = {size, start, nbr};
    return rs_connected(&g, m, src, nsrc, dst, ndst);
}

V rs_closure_component(int32_t size, const int32_t *start, const int32_t *nbr,
                       const unsigned char *m, V from) {
    rs_graph g = {size, start, nbr};
    return rs_component(&g, m, from);
}

V rs_closure_largest(int32_t size, const int32_t *start, const int32_t *nbr,
                     const unsigned char *m, const V *labels, V n_labels) {
    rs_graph g = {size, start, nbr};
    ENTER(NULL);
    return rs_largest(C, &g, m, labels, n_labels);
}

/* ===================================================================================
 * scratch space for the drivers: one per game, reused game after game
 * =================================================================================== */
typedef struct rs_work {
    const rs_game *g;
    rs_keys legal, other;
    double *cum;
    V *cumi;
    V *s, *t, *u, *y;
    V *scores, *keys, *scores2, *keys2;
    int32_t *best, *pick, *ranks;
    /* what a driver returns besides its status */
    int32_t steps, truncated;
    int32_t n_trace, trace_cap;
    int32_t *trace;        /* the action keys played (width each) */
    V *states;             /* with ``record``: every state reached (size each) */
    int32_t n_winners, n_winners2;
    int32_t *winners, *winners2;
    int64_t state_count;   /* states checked, across games */
} rs_work;

rs_work *rs_work_new(const rs_game *g) {
    rs_work *w = calloc(1, sizeof(rs_work));
    if (!w) return NULL;
    size_t cap = g->capacity > 0 ? (size_t)g->capacity : 1, size = (size_t)g->size;
    size_t players = (size_t)g->max_players + 1;
    w->g = g;
    w->legal.k = malloc(sizeof(int32_t) * cap * (size_t)g->width);
    w->legal.w = malloc(sizeof(V) * cap);
    w->other.k = malloc(sizeof(int32_t) * cap * (size_t)g->width);
    w->other.w = malloc(sizeof(V) * cap);
    w->cum = malloc(sizeof(double) * cap);
    w->cumi = malloc(sizeof(V) * cap);
    w->best = malloc(sizeof(int32_t) * cap);
    w->pick = malloc(sizeof(int32_t) * cap);
    w->ranks = malloc(sizeof(int32_t) * players);
    w->s = malloc(sizeof(V) * size); w->t = malloc(sizeof(V) * size);
    w->u = malloc(sizeof(V) * size); w->y = malloc(sizeof(V) * size);
    w->scores = malloc(sizeof(V) * players); w->keys = malloc(sizeof(V) * players);
    w->scores2 = malloc(sizeof(V) * players); w->keys2 = malloc(sizeof(V) * players);
    w->winners = malloc(sizeof(int32_t) * players);
    w->winners2 = malloc(sizeof(int32_t) * players);
    w->trace_cap = g->max_steps + 2;
    w->trace = malloc(sizeof(int32_t) * (size_t)w->trace_cap * (size_t)g->width);
    return w;
}

void rs_work_free(rs_work *w) {
    if (!w) return;
    free(w->legal.k); free(w->legal.w); free(w->other.k); free(w->other.w);
    free(w->cum); free(w->cumi); free(w->best); free(w->pick); free(w->ranks);
    free(w->s); free(w->t); free(w->u); free(w->y);
    free(w->scores); free(w->keys); free(w->scores2); free(w->keys2);
    free(w->winners); free(w->winners2); free(w->trace); free(w->states);
    free(w);
}

/* room to record every state of a game (rs_check with ``record``) */
int rs_work_record(rs_work *w) {
    if (!w->states) w->states = malloc(sizeof(V) * (size_t)w->trace_cap * (size_t)w->g->size);
    return w->states ? 0 : -1;
}

int32_t rs_work_steps(const rs_work *w) { return w->steps; }
int32_t rs_work_truncated(const rs_work *w) { return w->truncated; }
int32_t rs_work_trace_len(const rs_work *w) { return w->n_trace; }
const int32_t *rs_work_trace(const rs_work *w) { return w->trace; }
const V *rs_work_states(const rs_work *w) { return w->states; }
const V *rs_work_final(const rs_work *w) { return w->s; }
int32_t rs_work_winners(const rs_work *w, int32_t which, int32_t *out) {
    int32_t n = which ? w->n_winners2 : w->n_winners;
    memcpy(out, which ? w->winners2 : w->winners, sizeof(int32_t) * (size_t)n);
    return n;
}
int64_t rs_work_state_count(const rs_work *w) { return w->state_count; }
void rs_work_set_state_count(rs_work *w, int64_t n) { w->state_count = n; }

#define SIZE(g) ((size_t)(g)->size * sizeof(V))
#define WIDTH(g) ((size_t)(g)->width * sizeof(int32_t))
#define KEY(keys, i, g) ((keys).k + (size_t)(i) * (size_t)(g)->width)

static void record_key(rs_work *w, const int32_t *key) {
    if (w->n_trace < w->trace_cap) {
        memcpy(w->trace + (size_t)w->n_trace * (size_t)w->g->width, key, WIDTH(w->g));
        w->n_trace++;
    }
}

/* Model._ranked: the winners after every tie-break (not asking whether it is over) */
static int32_t ranked(rs_ctx *C, const rs_game *g, const V *s, V *scores, V *keys,
                      int32_t *best) {
    int32_t n = (int32_t)s[0], nb = 0;
    if (n < 1) RS_ERR(8);   /* Python's max() of no scores raises */
    g->scores(C, s, scores);
    V top = scores[0];
    for (int32_t p = 1; p < n; p++) if (scores[p] > top) top = scores[p];
    for (int32_t p = 0; p < n; p++) if (scores[p] == top) best[nb++] = p;
    for (int32_t k = 0; k < g->n_tie && nb > 1; k++) {
        for (int32_t b = 0; b < nb; b++) keys[b] = g->tie(C, k, s, best[b]);
        V pick = keys[0];
        for (int32_t b = 1; b < nb; b++)
            if (g->tie_lower_wins[k] ? keys[b] < pick : keys[b] > pick) pick = keys[b];
        int32_t m = 0;
        for (int32_t b = 0; b < nb; b++) if (keys[b] == pick) best[m++] = best[b];
        nb = m;
    }
    return nb;
}

/* policies: who plays a player's move */
#define RS_RANDOM 0
#define RS_GREEDY 1
#define RS_RULE_FIRST 2   /* report.coverage: a rule uniformly, then one of its moves */

/* check.policy.standing, as the pair (won 1 / lost -1 / not over 0, score margin) */
static void standing(rs_ctx *C, rs_work *w, const V *s, V mover, V *won, V *margin) {
    const rs_game *g = w->g;
    int32_t n = (int32_t)s[0];
    g->scores(C, s, w->scores2);
    V others = 0;
    int any = 0;
    for (int32_t p = 0; p < n; p++) {
        if (p == mover) continue;
        if (!any || w->scores2[p] > others) others = w->scores2[p];
        any = 1;
    }
    if (mover < 0 || mover >= n) RS_ERR(8);
    *margin = w->scores2[mover] - (any ? others : 0);
    *won = 0;
    if (g->terminal(C, s)) {
        int32_t nb = ranked(C, g, s, w->scores2, w->keys2, w->ranks);
        *won = -1;
        for (int32_t b = 0; b < nb; b++) if (w->ranks[b] == mover) *won = 1;
    }
}

/* the index of the player's move among the legal keys */
static int32_t choose_move(rs_ctx *C, rs_work *w, rs_rng *r, int policy, const V *s,
                           const rs_keys *legal) {
    const rs_game *g = w->g;
    int32_t n = legal->n;
    if (policy == RS_RANDOM) return (int32_t)rs_randbelow(r, n);
    if (policy == RS_RULE_FIRST) {
        /* rng.choice(sorted({rules})), then rng.choice(its moves, in legal order) */
        int32_t rules = 0;
        for (int32_t a = 0; a < g->n_actions; a++)
            for (int32_t i = 0; i < n; i++)
                if (KEY(*legal, i, g)[0] == a) { w->best[rules++] = a; break; }
        int32_t rule = w->best[rs_randbelow(r, rules)];
        int32_t m = 0;
        for (int32_t i = 0; i < n; i++) if (KEY(*legal, i, g)[0] == rule) w->pick[m++] = i;
        return w->pick[rs_randbelow(r, m)];
    }
    /* greedy: one step of look-ahead (a single move needs none) */
    if (n == 1) return 0;
    V mover = g->current_player(C, s);
    int32_t nb = 0;
    V top_won = 0, top_margin = 0;
    for (int32_t i = 0; i < n; i++) {
        V won, margin;
        if (g->step(C, s, KEY(*legal, i, g), w->y) != 1) RS_ERR(7);
        standing(C, w, w->y, mover, &won, &margin);
        if (nb == 0 || won > top_won || (won == top_won && margin > top_margin)) {
            top_won = won; top_margin = margin; nb = 0; w->best[nb++] = i;
        } else if (won == top_won && margin == top_margin) {
            w->best[nb++] = i;
        }
    }
    return nb == 1 ? w->best[0] : w->best[rs_randbelow(r, nb)];
}

/* keep the outcomes of positive weight (Model.random_action's ``ws``) */
static void positive(const rs_game *g, rs_keys *k) {
    int32_t m = 0;
    for (int32_t i = 0; i < k->n; i++) {
        if (k->w[i] <= 0) continue;
        if (m != i) memcpy(KEY(*k, m, g), KEY(*k, i, g), WIDTH(g));
        k->w[m++] = k->w[i];
    }
    k->n = m;
}

/* ===================================================================================
 * rs_play: one game from ``start`` (NULL: setup for n players), at most ``limit`` steps
 * =================================================================================== */
typedef struct rs_play_opts {
    int32_t policy;
    int32_t by_weight;     /* chance: rng.choices over integer weights (else probabilities) */
    int32_t limit;         /* steps at most */
    int32_t until_over;    /* stop when the game is over, before asking for moves (rollouts) */
    int32_t count;         /* count each action taken and each effect branch run */
} rs_play_opts;

/* 0: played (w->steps, w->s the last state, w->trace the keys); -1: the rules raised or
 * refused a move: Python plays this game instead */
int rs_play(rs_work *w, const V *I, rs_rng *r, V n, const V *start, const rs_play_opts *o,
            int64_t *branches, int64_t *taken) {
    const rs_game *g = w->g;
    jmp_buf jb;
    rs_ctx ctx_ = {&jb, I, NULL}; rs_ctx *C = &ctx_;
    w->steps = 0; w->n_trace = 0;
    if (setjmp(jb)) return -1;
    if (start) memcpy(w->s, start, SIZE(g)); else g->initial(C, n, w->s);
    for (int32_t step = 0; step < o->limit; step++) {
        if (o->until_over && g->terminal(C, w->s)) break;
        int32_t pick;
        if (g->current_player(C, w->s) == RS_CHANCE) {
            g->chance_weights(C, w->s, &w->legal);
            positive(g, &w->legal);
            if (!w->legal.n) break;
            pick = o->by_weight ? choose_by_weight(r, w->legal.w, w->legal.n, w->cumi)
                                : choose_by_probability(r, w->legal.w, w->legal.n, w->cum);
        } else {
            g->legal(C, w->s, &w->legal);
            if (!w->legal.n) break;
            pick = choose_move(C, w, r, o->policy, w->s, &w->legal);
        }
        const int32_t *key = KEY(w->legal, pick, g);
        record_key(w, key);
        if (o->count) taken[key[0]]++;
        C->branch = o->count ? branches : NULL;
        if (g->step(C, w->s, key, w->t) != 1) return -1;
        C->branch = NULL;
        V *tmp = w->s; w->s = w->t; w->t = tmp;
        w->steps++;
    }
    return 0;
}

/* openspiel.leaf_value's outcome of a state after ``steps`` steps: 1 the game is over
 * (its winners), 2 cut at the horizon, 3 not over (the leaders on the score); the players
 * in w->winners; -1 the rules raised */
int rs_leaf(rs_work *w, const V *I, const V *s, int32_t steps) {
    const rs_game *g = w->g;
    jmp_buf jb;
    rs_ctx ctx_ = {&jb, I, NULL}; rs_ctx *C = &ctx_;
    if (setjmp(jb)) return -1;
    if (g->terminal(C, s)) {
        w->n_winners = ranked(C, g, s, w->scores, w->keys, w->winners);
        return 1;
    }
    if (g->horizon >= 0 && steps >= g->horizon) return 2;
    int32_t n = (int32_t)s[0];
    if (n < 1) return -1;
    g->scores(C, s, w->scores);
    V top = w->scores[0];
    for (int32_t p = 1; p < n; p++) if (w->scores[p] > top) top = w->scores[p];
    w->n_winners = 0;
    for (int32_t p = 0; p < n; p++) if (w->scores[p] == top) w->winners[w->n_winners++] = p;
    return 3;
}

/* ===================================================================================
 * rs_check: one game of check.walk.play_checked, every property of C checked
 * =================================================================================== */
#define P_NONEMPTY 1        /* legal_actions_nonempty_unless_terminal */
#define P_ACCEPTED 2        /* legal_actions_are_accepted_and_illegal_refused */
#define P_BOUNDS 4          /* fields_within_bounds */
#define P_CHANCE 8          /* chance_outcomes_are_a_distribution */
#define P_DETERMINISTIC 16  /* apply_is_deterministic_and_pure */
#define P_WINNERS 32        /* winners_are_total */
#define P_TERMINATES 64     /* terminates_within_declared_bound */
#define LEGAL_SAMPLES 8     /* properties/generic.py */
#define ILLEGAL_SAMPLES 4

typedef struct rs_check_opts {
    int32_t props;          /* the P_ bits to check */
    const int8_t *inv;      /* per invariant: checked */
    const int8_t *cons;     /* per conservation law: checked */
    int32_t policy;
    int32_t record;         /* keep every state (w->states) for the properties of Python */
    int32_t n_every;        /* every action of the game, one per text (Model._every_action) */
    const int32_t *every;
} rs_check_opts;

static int in_keys(const rs_game *g, const rs_keys *keys, const int32_t *key) {
    for (int32_t i = 0; i < keys->n; i++)
        if (!memcmp(KEY(*keys, i, g), key, WIDTH(g))) return 1;
    return 0;
}

/* Model.why_illegal gives a reason for ``key`` (which step refused) */
static int has_reason(rs_ctx *C, const rs_game *g, const V *s, V cp, const int32_t *key,
                      const rs_keys *legal) {
    int32_t i = key[0], np = g->width - 1;
    if (cp == RS_TERMINAL) return 1;
    if (i < 0 || i >= g->n_actions) return 1;
    if (g->chance[i] != (cp == RS_CHANCE)) return 1;
    for (int32_t j = 0; j < g->n_params[i]; j++) {
        V lo = g->param_lo[i * np + j], hi = g->param_hi[i * np + j];
        if (hi < 0) hi = s[0];
        if (key[1 + j] < lo || key[1 + j] >= hi) return 1;
    }
    for (int32_t j = 0; j < g->n_pre[i]; j++)
        if (!g->pre(C, i, j, s, key + 1)) return 1;
    return g->chance[i] && !in_keys(g, legal, key);
}

/* within 1e-9 of 1, summed left to right (Python 3.11's sum) and compensated (3.12's) */
static int sums_to_one(const V *w, int32_t n) {
    V total = 0;
    for (int32_t i = 0; i < n; i++) total += w[i];
    double sum = 0.0, c = 0.0;
    for (int32_t i = 0; i < n; i++) {
        double p = (double)w[i] / (double)total, t = sum + p;
        double big = sum >= p ? sum : p, small = sum >= p ? p : sum;
        c += (big - t) + small;
        sum = t;
    }
    double d1 = sum - 1.0, d2 = (sum + c) - 1.0;
    return d1 <= 1e-9 && d1 >= -1e-9 && d2 <= 1e-9 && d2 >= -1e-9;
}

/* every state property of C on w->s (its legal keys left in w->legal); 0 if one fails */
static int state_ok(rs_ctx *C, rs_work *w, const rs_check_opts *o) {
    const rs_game *g = w->g;
    const V *s = w->s;
    if (o->props & P_BOUNDS) {
        for (int32_t k = 0; k < g->size; k++)
            if (s[k] < g->cell_lo[k] || s[k] > g->cell_hi[k]) return 0;
    }
    for (int32_t k = 0; k < g->n_inv; k++)
        if (o->inv[k] && !g->inv(C, k, s)) return 0;
    int over = g->terminal(C, s);
    g->legal(C, s, &w->legal);
    V cp = g->current_player(C, s);
    if (o->props & P_NONEMPTY) {
        if (!over && !w->legal.n) return 0;
        if (over && w->legal.n) return 0;
        if (over != (cp == RS_TERMINAL)) return 0;
    }
    if ((o->props & P_CHANCE) && cp == RS_CHANCE) {
        if (!w->legal.n || !sums_to_one(w->legal.w, w->legal.n)) return 0;
    }
    if (o->props & P_ACCEPTED) {
        int32_t n = w->legal.n;
        int64_t h = rs_tuple_hash(s, g->size);
        if (n) {
            int32_t first = py_mod(h, n);
            for (int32_t k = 0; k < n && k < LEGAL_SAMPLES; k++)
                if (g->step(C, s, KEY(w->legal, (first + k) % n, g), w->y) != 1) return 0;
        }
        if (o->n_every) {
            int32_t start = py_mod(h, o->n_every), tried = 0;
            for (int32_t k = 0; k < o->n_every && tried < ILLEGAL_SAMPLES; k++) {
                const int32_t *key = o->every + (size_t)((start + k) % o->n_every) * g->width;
                if (in_keys(g, &w->legal, key)) continue;
                if (g->step(C, s, key, w->y) != 0) return 0;   /* accepted */
                if (!has_reason(C, g, s, cp, key, &w->legal)) return 0;
                tried++;
            }
        }
    }
    return 1;
}

/* the step properties of C: before w->u, the key, after w->s */
static int step_ok(rs_ctx *C, rs_work *w, const rs_check_opts *o, const int32_t *key) {
    const rs_game *g = w->g;
    if (o->props & P_DETERMINISTIC) {
        if (g->step(C, w->u, key, w->y) != 1) return 0;
        if (memcmp(w->y, w->s, SIZE(g))) return 0;
    }
    for (int32_t k = 0; k < g->n_cons; k++)
        if (o->cons[k] && g->cons(C, k, w->u) != g->cons(C, k, w->s)) return 0;
    if ((o->props & P_WINNERS) && g->terminal(C, w->s)) {
        int32_t nb = ranked(C, g, w->s, w->scores, w->keys, w->winners);
        if (nb < 1 || (nb > 1 && !g->shared_ties)) return 0;
    }
    return 1;
}

/* 0: every property of C held (w->steps, w->truncated, w->trace, and with ``record``
 * w->states); 1: stop here -- a property failed, a rule raised or refused a move:
 * Python replays this game and says what went wrong */
int rs_check(rs_work *w, const V *I, rs_rng *r, V n, const rs_check_opts *o) {
    const rs_game *g = w->g;
    jmp_buf jb;
    rs_ctx ctx_ = {&jb, I, NULL}; rs_ctx *C = &ctx_;
    w->steps = 0; w->truncated = 0; w->n_trace = 0;
    if (setjmp(jb)) return 1;
    g->initial(C, n, w->s);
    if (o->record) memcpy(w->states, w->s, SIZE(g));
    w->state_count++;
    if (!state_ok(C, w, o)) return 1;   /* and w->legal holds the legal keys */
    int32_t limit = g->horizon >= 0 ? g->horizon - 1 : g->max_steps;
    while (w->steps <= limit) {
        if (!w->legal.n) break;
        int32_t pick;
        if (g->current_player(C, w->s) == RS_CHANCE)
            pick = choose_by_probability(r, w->legal.w, w->legal.n, w->cum);
        else
            pick = choose_move(C, w, r, o->policy, w->s, &w->legal);
        int32_t key[g->width];
        memcpy(key, KEY(w->legal, pick, g), sizeof key);
        record_key(w, key);
        if (g->step(C, w->s, key, w->t) != 1) return 1;
        V *tmp = w->u; w->u = w->s; w->s = w->t; w->t = tmp;   /* u: before, s: after */
        w->steps++;
        if (o->record) memcpy(w->states + (size_t)w->steps * g->size, w->s, SIZE(g));
        if (!step_ok(C, w, o, key)) return 1;
        w->state_count++;
        if (!state_ok(C, w, o)) return 1;
    }
    if (g->horizon >= 0 && w->steps >= g->horizon && !g->terminal(C, w->s)) {
        w->truncated = 1;
        return 0;
    }
    if ((o->props & P_TERMINATES) && !g->terminal(C, w->s)) return 1;
    return 0;
}

/* ===================================================================================
 * rs_lockstep: one game of check.impact.lockstep (the driver's reading D, the shadow S)
 * =================================================================================== */
/* check.impact._legal: nothing when the game is over, else the legal keys */
static void legal_or_none(rs_ctx *C, rs_work *w, const V *s, rs_keys *out) {
    if (w->g->terminal(C, s)) { out->n = 0; return; }
    w->g->legal(C, s, out);
}

/* check.impact._choose: chance outcomes by their integer weights, players by the policy */
static int32_t impact_choose(rs_ctx *C, rs_work *w, rs_rng *r, int policy, const V *s,
                             rs_keys *legal) {
    const rs_game *g = w->g;
    if (g->current_player(C, s) == RS_CHANCE) {
        g->chance_weights(C, s, &w->other);   /* dict(chance_weights): the last one wins */
        for (int32_t i = 0; i < legal->n; i++) {
            V wt = 0;
            for (int32_t j = 0; j < w->other.n; j++)
                if (!memcmp(KEY(w->other, j, g), KEY(*legal, i, g), WIDTH(g)))
                    wt = w->other.w[j];
            legal->w[i] = wt;
        }
        return choose_by_weight(r, legal->w, legal->n, w->cumi);
    }
    if (policy == RS_RANDOM) return (int32_t)rs_randbelow(r, legal->n);
    if (legal->n == 1) return 0;
    return choose_move(C, w, r, policy, s, legal);
}

static int same_keys(const rs_game *g, const int32_t *a, int32_t na, const rs_keys *b) {
    return na == b->n && !memcmp(a, b->k, WIDTH(g) * (size_t)na);
}

/* 1: the readings part (the driver's keys up to there in wd->trace), 0: they do not; the
 * final winners of the driver in wd->winners, of the shadow in wd->winners2; -1: the
 * rules raised (Python plays this game instead) */
int rs_lockstep(rs_work *wd, const V *Id, rs_work *ws, const V *Is, rs_rng *rng,
                rs_rng *own, V n, int32_t policy) {
    const rs_game *gd = wd->g, *gs = ws->g;
    jmp_buf jb;
    rs_ctx cd_ = {&jb, Id, NULL}, cs_ = {&jb, Is, NULL};
    rs_ctx *C = &cd_, *CS = &cs_;
    size_t size = (size_t)gd->size, width = (size_t)gd->width;
    int32_t cap = gd->max_steps + 2;
    V *states = malloc(sizeof(V) * size * (size_t)(cap + 1));
    int32_t *keys = malloc(sizeof(int32_t) * width * (size_t)cap);
    int32_t *nlegal = malloc(sizeof(int32_t) * (size_t)cap);
    size_t *legal_at = malloc(sizeof(size_t) * (size_t)cap);
    int32_t *history = malloc(sizeof(int32_t) * width * (size_t)cap);
    int32_t *volatile legal = NULL;
    volatile int status = -1;
    if (!states || !keys || !nlegal || !legal_at || !history) goto done;
    if (setjmp(jb)) goto done;
    /* the driver's game (check.impact._path), every state and legal list kept */
    size_t legal_len = 0, legal_cap = 0;
    int32_t nsteps = 0, last_has_key = 0;
    gd->initial(C, n, states);
    for (int32_t t = 0; t < gd->max_steps + 1; t++) {
        V *vd = states + (size_t)t * size;
        legal_or_none(C, wd, vd, &wd->legal);
        size_t need = legal_len + (size_t)wd->legal.n * width;
        if (need > legal_cap) {
            legal_cap = need * 2 + 64;
            int32_t *grown = realloc(legal, sizeof(int32_t) * legal_cap);
            if (!grown) goto done;
            legal = grown;
        }
        legal_at[t] = legal_len;
        nlegal[t] = wd->legal.n;
        memcpy(legal + legal_len, wd->legal.k, sizeof(int32_t) * (size_t)wd->legal.n * width);
        legal_len = need;
        nsteps = t + 1;
        if (!wd->legal.n) { last_has_key = 0; break; }
        int32_t pick = impact_choose(C, wd, rng, policy, vd, &wd->legal);
        memcpy(keys + (size_t)t * width, KEY(wd->legal, pick, gd), WIDTH(gd));
        gd->apply(C, vd, keys + (size_t)t * width, vd + size);
        last_has_key = 1;
    }
    V *final_d = states + (size_t)(last_has_key ? nsteps : nsteps - 1) * size;
    wd->n_winners = gd->terminal(C, final_d)
        ? ranked(C, gd, final_d, wd->scores, wd->keys, wd->winners) : 0;
    /* the shadow follows (check.impact._game) */
    V *vs = ws->s;
    gs->initial(CS, n, vs);
    int32_t parted = 0, part_at = 0, hist = 0;
    for (int32_t t = 0; t < nsteps; t++) {
        V *vd = states + (size_t)t * size;
        const int32_t *ld = legal + legal_at[t];
        if (!parted) {
            if (memcmp(vd, vs, size * sizeof(V))) { parted = 1; part_at = t - 1; }
            else {
                legal_or_none(CS, ws, vs, &ws->legal);
                if (!same_keys(gd, ld, nlegal[t], &ws->legal)
                    || gd->terminal(C, vd) != gs->terminal(CS, vs)) { parted = 1; part_at = t; }
            }
        }
        if (t == nsteps - 1 && !last_has_key) break;
        const int32_t *key = keys + (size_t)t * width;
        if (!parted) { memcpy(history + (size_t)hist * width, key, WIDTH(gd)); hist++; }
        if (gs->terminal(CS, vs) || gs->current_player(CS, vs) == RS_TERMINAL) continue;
        if (!parted) {
            memcpy(ws->legal.k, ld, WIDTH(gd) * (size_t)nlegal[t]);
            ws->legal.n = nlegal[t];
        } else {
            legal_or_none(CS, ws, vs, &ws->legal);
        }
        if (in_keys(gs, &ws->legal, key)) {
            gs->apply(CS, vs, key, ws->t);
            memcpy(vs, ws->t, size * sizeof(V));
        } else if (ws->legal.n) {
            int32_t pick = impact_choose(CS, ws, own, policy, vs, &ws->legal);
            gs->apply(CS, vs, KEY(ws->legal, pick, gs), ws->t);
            memcpy(vs, ws->t, size * sizeof(V));
        }
    }
    /* check.impact._finish */
    for (int32_t t = 0; t < gs->max_steps + 1; t++) {
        legal_or_none(CS, ws, vs, &ws->legal);
        if (!ws->legal.n) break;
        int32_t pick = impact_choose(CS, ws, own, policy, vs, &ws->legal);
        gs->apply(CS, vs, KEY(ws->legal, pick, gs), ws->t);
        memcpy(vs, ws->t, size * sizeof(V));
    }
    wd->n_winners2 = gs->terminal(CS, vs)
        ? ranked(CS, gs, vs, ws->scores, ws->keys, wd->winners2) : 0;
    if (!parted) {
        int32_t nd = (int32_t)final_d[0], ns = (int32_t)vs[0];
        int differ = nd != ns;
        if (!differ) {
            gd->scores(C, final_d, wd->scores);
            gs->scores(CS, vs, ws->scores);
            for (int32_t p = 0; p < nd && !differ; p++) differ = wd->scores[p] != ws->scores[p];
        }
        if (differ || wd->n_winners != wd->n_winners2
            || memcmp(wd->winners, wd->winners2, sizeof(int32_t) * (size_t)wd->n_winners)) {
            parted = 1; part_at = hist;
        }
    }
    wd->n_trace = 0;
    if (parted) {
        int32_t m = part_at < 0 ? 0 : part_at;
        memcpy(wd->trace, history, WIDTH(gd) * (size_t)m);
        wd->n_trace = m;
    }
    status = parted;
done:
    free(states); free(keys); free(nlegal); free(legal); free(legal_at); free(history);
    return status;
}
