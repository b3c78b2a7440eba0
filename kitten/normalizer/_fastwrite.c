/*
 * kitten.normalizer._fastwrite: the XHTML writer's common case in C.
 *
 * Most of a page is subtrees that the writer (xhtml.py) copies as they are: known
 * XHTML elements where their parent allows them, attributes that are dropped,
 * copied, lower-cased or made class tokens, text where text may stand, elements
 * that are always left out. This module finds those subtrees in lexbor's tree in
 * one pass and writes each of them in C (`subtree`, and `run` for the siblings
 * that follow one another); `place_subtree` also writes an element the writer has
 * placed, with its content, where that only needs renaming or leaving out the
 * elements that may not stand where they are (blocks in a link). The Python writer
 * handles everything else (splitting, wrapping, tables, head, the document element)
 * and calls these for the elements it reaches. `finish` resolves the IDREFs and
 * removes the characters XML does not allow, in one pass over the document.
 * The output is byte for byte the Python writer's: tests compare the two on
 * corpus pages, and xhtml.py checks it on a probe page before using this module.
 *
 * The tree is read through lexbor's struct layout (as declared by selectolax's
 * lexbor.pxd) and one exported function, lxb_dom_attr_qualified_name, whose address
 * the caller passes in. No global state: the tables live in a capsule.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* ---- lexbor's structures (lexbor/dom/interfaces/{node,element,attr,character_data}.h) */
typedef struct lxb_node lxb_node;
struct lxb_node {
    void *events;
    uintptr_t local_name, prefix, ns;
    void *owner_document;
    lxb_node *next, *prev, *parent, *first_child, *last_child;
    void *user;
    int type;
};
typedef struct { unsigned char *data; size_t length; } lxb_str;
typedef struct lxb_attr lxb_attr;
typedef struct {
    lxb_node node;
    uintptr_t upper_name, qualified_name;
    lxb_str *is_value;
    lxb_attr *first_attr, *last_attr, *attr_id, *attr_class;
} lxb_element;
struct lxb_attr {
    lxb_node node;
    uintptr_t upper_name, qualified_name;
    lxb_str *value;
    lxb_element *owner;
    lxb_attr *next, *prev;
};
typedef struct { lxb_node node; lxb_str data; } lxb_chardata;
typedef const unsigned char *(*qname_fn)(lxb_attr *, size_t *);
typedef const unsigned char *(*el_qname_fn)(lxb_element *, size_t *);

enum { NODE_ELEMENT = 1, NODE_TEXT = 3, NODE_COMMENT = 8 };

/* ---- tables (built from the DTD by xhtml.py) -------------------------------- */
#define MAX_TAG_ID 1024 /* lexbor's static tag ids are small; dynamic ones are pointers */
#define MAX_ELEMENTS 128
#define WORDS 2 /* bitsets over element indexes */

enum { K_CDATA = 1, K_ENUM, K_CLASS, K_STYLE, K_ID, K_NMTOKEN, K_IDREF };
enum { F_EMPTY = 1, F_PCDATA = 2, F_TRACKED = 4, F_EXCLUDED = 8, F_META = 16, F_CLASS = 32, F_STYLE = 64,
       F_DROP = 128, F_BLOCK = 256, F_DROP_MISPLACED = 512, F_VOID = 1024, F_SPLIT = 2048 };
/* F_BLOCK: xhtml.BLOCK_ORIGINALS; F_DROP_MISPLACED: xhtml.DROP_MISPLACED; F_VOID:
   xhtml.CONTENT_VOIDS; F_SPLIT: xhtml.SPLITTABLE */
#define DROPPED (-2) /* element_index of an element never written (xhtml.DROP_ALWAYS) */

typedef struct {
    char *name; size_t len;
    int kind;
    char *values; size_t values_len; /* K_ENUM: "\0v1\0v2\0" */
} attr_spec;

typedef struct {
    char *name; size_t len;
    int flags;
    uint64_t fast[WORDS], required[WORDS], children[WORDS]; /* children: all the DTD allows */
    attr_spec *attrs; int n_attrs;
    attr_spec *defaults; int n_defaults; /* required attributes: name, value */
} element_spec;

#define MAX_RENAMES 64
typedef struct {
    int16_t element_of_tag[MAX_TAG_ID];
    element_spec elements[MAX_ELEMENTS];
    int n_elements;
    qname_fn attr_name;
    el_qname_fn element_name;
    /* elements unknown to XHTML: written as the element named here (-1: never here),
       others as span_index, with a class naming the original */
    attr_spec renames[MAX_RENAMES]; /* name, kind = element index or -1 */
    int n_renames, span_index, div_index;
} tables;

static int has_bit(const uint64_t *set, int i) { return (set[i >> 6] >> (i & 63)) & 1; }

static void free_tables(PyObject *capsule) {
    tables *t = PyCapsule_GetPointer(capsule, "kitten.fastwrite.tables");
    if (!t) return;
    for (int i = 0; i < t->n_elements; i++) {
        element_spec *e = &t->elements[i];
        for (int j = 0; j < e->n_attrs; j++) { PyMem_Free(e->attrs[j].name); PyMem_Free(e->attrs[j].values); }
        for (int j = 0; j < e->n_defaults; j++) { PyMem_Free(e->defaults[j].name); PyMem_Free(e->defaults[j].values); }
        PyMem_Free(e->attrs); PyMem_Free(e->defaults); PyMem_Free(e->name);
    }
    for (int i = 0; i < t->n_renames; i++) { PyMem_Free(t->renames[i].name); PyMem_Free(t->renames[i].values); }
    PyMem_Free(t);
}

static char *copy_bytes(PyObject *b, size_t *len) {
    char *s; Py_ssize_t n;
    if (PyBytes_AsStringAndSize(b, &s, &n) < 0) return NULL;
    char *r = PyMem_Malloc(n + 1);
    if (!r) { PyErr_NoMemory(); return NULL; }
    memcpy(r, s, n); r[n] = 0; *len = (size_t)n;
    return r;
}

static int read_bitset(PyObject *seq, uint64_t *set) {
    PyObject *it = PyObject_GetIter(seq), *x;
    if (!it) return -1;
    memset(set, 0, WORDS * sizeof(uint64_t));
    while ((x = PyIter_Next(it))) {
        long i = PyLong_AsLong(x); Py_DECREF(x);
        if (i < 0 || i >= MAX_ELEMENTS) { Py_DECREF(it); PyErr_SetString(PyExc_ValueError, "bad element index"); return -1; }
        set[i >> 6] |= (uint64_t)1 << (i & 63);
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : 0;
}

/* attrs: list of (name bytes, kind int, values bytes) */
static int read_attrs(PyObject *list, attr_spec **out, int *n) {
    Py_ssize_t m = PyList_Size(list);
    if (m < 0) return -1;
    *out = PyMem_Calloc(m ? m : 1, sizeof(attr_spec)); *n = (int)m;
    if (!*out) { PyErr_NoMemory(); return -1; }
    for (Py_ssize_t j = 0; j < m; j++) {
        PyObject *name, *values; int kind;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(list, j), "SiS", &name, &kind, &values)) return -1;
        attr_spec *a = &(*out)[j];
        a->kind = kind;
        if (!(a->name = copy_bytes(name, &a->len))) return -1;
        if (!(a->values = copy_bytes(values, &a->values_len))) return -1;
    }
    return 0;
}

/* make_tables(attr_qualified_name_address, element_qualified_name_address, {tag_id: index},
               [(name, flags, fast, required, children, attrs, defaults)], [(name, index, b"")],
               span index, div index) */
static PyObject *make_tables(PyObject *self, PyObject *args) {
    unsigned long long fn, el_fn; PyObject *tag_map, *elements, *renames; int span_index, div_index;
    if (!PyArg_ParseTuple(args, "KKO!O!O!ii", &fn, &el_fn, &PyDict_Type, &tag_map, &PyList_Type, &elements,
                          &PyList_Type, &renames, &span_index, &div_index)) return NULL;
    if (PyList_GET_SIZE(renames) > MAX_RENAMES) { PyErr_SetString(PyExc_ValueError, "too many renames"); return NULL; }
    if (PyList_GET_SIZE(elements) > MAX_ELEMENTS) { PyErr_SetString(PyExc_ValueError, "too many elements"); return NULL; }
    tables *t = PyMem_Calloc(1, sizeof(tables));
    if (!t) return PyErr_NoMemory();
    PyObject *capsule = PyCapsule_New(t, "kitten.fastwrite.tables", free_tables);
    if (!capsule) { PyMem_Free(t); return NULL; }
    t->attr_name = (qname_fn)(uintptr_t)fn;
    t->element_name = (el_qname_fn)(uintptr_t)el_fn;
    t->span_index = span_index;
    t->div_index = div_index;
    attr_spec *rn; int n_rn;
    if (read_attrs(renames, &rn, &n_rn) < 0) goto fail;
    memcpy(t->renames, rn, n_rn * sizeof(attr_spec));
    t->n_renames = n_rn;
    PyMem_Free(rn);
    for (int i = 0; i < MAX_TAG_ID; i++) t->element_of_tag[i] = -1;
    PyObject *k, *v; Py_ssize_t pos = 0;
    while (PyDict_Next(tag_map, &pos, &k, &v)) {
        long id = PyLong_AsLong(k), ix = PyLong_AsLong(v);
        if (PyErr_Occurred()) goto fail;
        if (id > 0 && id < MAX_TAG_ID) t->element_of_tag[id] = (int16_t)ix;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(elements); i++) {
        PyObject *name, *fast, *req, *children, *attrs, *defaults; int flags;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(elements, i), "SiOOOO!O!", &name, &flags, &fast, &req, &children,
                              &PyList_Type, &attrs, &PyList_Type, &defaults)) goto fail;
        element_spec *e = &t->elements[i];
        t->n_elements = (int)i + 1;
        e->flags = flags;
        if (!(e->name = copy_bytes(name, &e->len))) goto fail;
        if (read_bitset(fast, e->fast) < 0 || read_bitset(req, e->required) < 0
            || read_bitset(children, e->children) < 0) goto fail;
        if (read_attrs(attrs, &e->attrs, &e->n_attrs) < 0) goto fail;
        if (read_attrs(defaults, &e->defaults, &e->n_defaults) < 0) goto fail;
        if (e->n_defaults > 32) { PyErr_SetString(PyExc_ValueError, "too many required attributes"); goto fail; }
    }
    return capsule;
fail:
    Py_DECREF(capsule);
    return NULL;
}

/* ---- reading the tree ---------------------------------------------------------- */
static int known_index(const tables *t, const lxb_node *n) {
    const lxb_element *el = (const lxb_element *)n;
    if (n->local_name >= MAX_TAG_ID || n->prefix != 0) return -1;
    if (el->qualified_name != 0 && el->qualified_name != n->local_name) return -1;
    return t->element_of_tag[n->local_name];
}

/* The element written for n: its own (XHTML) or, for an element XHTML does not know,
   the one it is renamed to (*renamed = 1); -1 when the Python writer must decide,
   DROPPED when it is left out with its content. */
static int element_index(const tables *t, const lxb_node *n, int *renamed) {
    int ix = known_index(t, n);
    *renamed = 0;
    if (ix >= 0) return (t->elements[ix].flags & F_DROP) ? DROPPED : ix;
    size_t len = 0;
    const unsigned char *name = t->element_name((lxb_element *)n, &len);
    if (!name || !len) return -1;
    for (size_t i = 0; i < len; i++) if (name[i] >= 0x80) return -1;
    for (int i = 0; i < t->n_elements; i++) /* an XHTML name read in another way */
        if (t->elements[i].len == len && memcmp(t->elements[i].name, name, len) == 0) return -1;
    *renamed = 1;
    for (int i = 0; i < t->n_renames; i++)
        if (t->renames[i].len == len && memcmp(t->renames[i].name, name, len) == 0) return t->renames[i].kind;
    return t->span_index;
}

static const attr_spec *find_attr(const element_spec *e, const unsigned char *name, size_t len) {
    for (int j = 0; j < e->n_attrs; j++)
        if (e->attrs[j].len == len && memcmp(e->attrs[j].name, name, len) == 0) return &e->attrs[j];
    return NULL;
}

static int is_xml_space(const unsigned char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r') return 0;
    return 1;
}

/* Python's str.strip() white space within ASCII, and the enumeration value as the
   writer normalizes it (stripped, lower-cased, the attribute's name when empty);
   -1 when the value is not ASCII (left to the Python writer). */
static int py_space(unsigned char c) { return c == ' ' || (c >= 9 && c <= 13) || (c >= 28 && c <= 31); }

static Py_ssize_t enum_value(const lxb_str *v, const unsigned char *name, size_t name_len, unsigned char *buf, size_t cap) {
    const unsigned char *s = v ? v->data : NULL; size_t n = (v && s) ? v->length : 0;
    for (size_t i = 0; i < n; i++) if (s[i] >= 0x80) return -1;
    while (n && py_space(*s)) { s++; n--; }
    while (n && py_space(s[n - 1])) n--;
    if (!n) { s = name; n = name_len; }
    if (n + 2 > cap) return -1;
    buf[0] = 0;
    for (size_t i = 0; i < n; i++) buf[i + 1] = (s[i] >= 'A' && s[i] <= 'Z') ? s[i] + 32 : s[i];
    buf[n + 1] = 0;
    return (Py_ssize_t)n;
}

static int enum_allowed(const attr_spec *a, const unsigned char *buf, size_t n) {
    /* buf holds "\0value\0"; values is "\0v1\0v2\0" */
    const char *p = a->values, *end = a->values + a->values_len;
    while (p + n + 2 <= end) {
        if (memcmp(p, buf, n + 2) == 0) return 1;
        p = memchr(p + 1, 0, end - p - 1);
        if (!p) return 0;
    }
    return 0;
}

static int is_ascii(const lxb_str *v) {
    if (!v || !v->data) return 1;
    for (size_t i = 0; i < v->length; i++) if (v->data[i] >= 0x80) return 0;
    return 1;
}

static int name_char(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

/* An ASCII value made into an XML name token (xhtml.xml_nmtoken) or, with `id`, a
   Name (xhtml.xml_name): stripped, other characters replaced by "_", "_" before a
   first character that cannot start a Name. Written to *out (PyMem; free it);
   returns its length, 0 when nothing is left, -1 on error. */
static Py_ssize_t name_token(const lxb_str *v, int id, char **out) {
    const unsigned char *s = (v && v->data) ? v->data : (const unsigned char *)"";
    size_t n = (v && v->data) ? v->length : 0;
    while (n && py_space(*s)) { s++; n--; }
    while (n && py_space(s[n - 1])) n--;
    *out = NULL;
    if (!n) return 0;
    char *r = PyMem_Malloc(n + 2);
    if (!r) { PyErr_NoMemory(); return -1; }
    size_t k = 0;
    if (id && !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_' || !name_char(s[0])))
        r[k++] = '_';
    for (size_t i = 0; i < n; i++) r[k++] = name_char(s[i]) ? (char)s[i] : '_';
    *out = r;
    return (Py_ssize_t)k;
}

#define IS(name, len, lit) ((len) == sizeof(lit) - 1 && memcmp((name), (lit), sizeof(lit) - 1) == 0)

#define SEMANTIC_MAX 256 /* longer values of semantic attributes: left to the Python writer */

/* xhtml.SEMANTIC_ATTRS: 1 role, 2 itemprop, 3 itemtype, 4 aria-hidden; 0 another name */
static int semantic_attr(const unsigned char *name, size_t len) {
    if (IS(name, len, "role")) return 1;
    if (IS(name, len, "itemprop")) return 2;
    if (IS(name, len, "itemtype")) return 3;
    if (IS(name, len, "aria-hidden")) return 4;
    return 0;
}

/* Whether an element's own attributes are all handled here. */
static int attributes_ok(const tables *t, const element_spec *e, lxb_node *n) {
    unsigned char buf[64];
    for (lxb_attr *a = ((lxb_element *)n)->first_attr; a; a = a->next) {
        size_t len = 0;
        const unsigned char *name = t->attr_name(a, &len);
        if (!name) return 0;
        /* a meta's charset, http-equiv: xhtml._meta_attributes, in Python */
        if ((e->flags & F_META) && (IS(name, len, "charset") || IS(name, len, "http-equiv"))) return 0;
        const attr_spec *s = find_attr(e, name, len);
        if (!s) {
            /* class tokens (xhtml.semantic_classes) of ASCII values, where there is a class */
            if ((e->flags & F_CLASS) && semantic_attr(name, len)
                && (!is_ascii(a->value) || (a->value && a->value->data && a->value->length > SEMANTIC_MAX)))
                return 0;
            continue;                                               /* dropped (or hidden) */
        }
        if ((s->kind == K_ID || s->kind == K_NMTOKEN) && !is_ascii(a->value)) return 0;
        if (s->kind == K_ENUM && enum_value(a->value, name, len, buf, sizeof buf) < 0) return 0;
    }
    return 1;
}

/* One pass, children before parents, leaves in node->user: ok (the element and
   everything under it can be written here, given that its parent is written as is),
   the element it is written as (element_index, whether renamed) and its height (the
   depth of its deepest element below it). Writing reads them back. */
#define MARK(ok, renamed, drop, ix, h) \
    ((void *)(((uintptr_t)(h) << 12) | ((uintptr_t)((ix) + 1) << 4) | ((drop) ? 4 : 0) | ((renamed) ? 2 : 0) \
              | ((ok) ? 1 : 0)))
#define MARK_OK(n) (((uintptr_t)(n)->user) & 1)
#define MARK_RENAMED(n) ((((uintptr_t)(n)->user) >> 1) & 1)
#define MARK_DROP(n) ((((uintptr_t)(n)->user) >> 2) & 1) /* left out with its content (and logged) */
#define MARK_NO_PLACE(n) ((((uintptr_t)(n)->user) >> 3) & 1) /* place_subtree gave up on it: not again */
#define SET_NO_PLACE(n) ((n)->user = (void *)((uintptr_t)(n)->user | 8))
#define MARK_INDEX(n) ((int)((((uintptr_t)(n)->user) >> 4) & 0xFF) - 1)
#define MARK_HEIGHT(n) (((uintptr_t)(n)->user) >> 12)

static void mark_element(const tables *t, lxb_node *n) {
    int renamed, ix = element_index(t, n, &renamed);
    if (ix == DROPPED) { n->user = MARK(0, 0, 1, -1, 0); return; }
    const element_spec *e = ix >= 0 ? &t->elements[ix] : NULL;
    int ok = e && !(e->flags & F_EXCLUDED) && attributes_ok(t, e, n);
    uintptr_t height = 0; int required = 0;
    for (lxb_node *c = n->first_child; c; c = c->next) {
        if (c->type == NODE_ELEMENT) {
            if (MARK_DROP(c)) continue; /* never written: no height, nothing to check */
            uintptr_t h = MARK_HEIGHT(c) + 1;
            if (h > height) height = h;
            if (!ok) continue;
            int cx = MARK_INDEX(c);
            if (!MARK_OK(c) || cx < 0 || !has_bit(e->fast, cx)) ok = 0;
            else if (has_bit(e->required, cx)) required = 1;
        } else if (c->type == NODE_TEXT) {
            if (ok && !(e->flags & F_PCDATA)) {
                lxb_str *d = &((lxb_chardata *)c)->data;
                if (d->data && !is_xml_space(d->data, d->length)) ok = 0;
            }
        } else if (c->type != NODE_COMMENT) {
            ok = 0;
        }
    }
    if (ok && (e->flags & F_EMPTY) && n->first_child) ok = 0;
    if (ok && (e->flags & F_TRACKED) && !required) ok = 0;
    n->user = MARK(ok, renamed, 0, ix, height);
}

static PyObject *prepare(PyObject *self, PyObject *args) {
    PyObject *capsule; unsigned long long addr;
    if (!PyArg_ParseTuple(args, "OK", &capsule, &addr)) return NULL;
    const tables *t = PyCapsule_GetPointer(capsule, "kitten.fastwrite.tables");
    if (!t) return NULL;
    lxb_node *root = (lxb_node *)(uintptr_t)addr, *n = root;
    /* post-order without recursion (trees may be 100,000 deep) */
    while (n) {
        if (n->type == NODE_ELEMENT && n->first_child) { n = n->first_child; continue; }
        for (;;) {
            if (n->type == NODE_ELEMENT) mark_element(t, n);
            if (n == root) { n = NULL; break; }
            if (n->next) { n = n->next; break; }
            n = n->parent;
        }
    }
    Py_RETURN_NONE;
}

/* ---- writing ---------------------------------------------------------------------- */
typedef struct { char *data; size_t len, cap; } buffer;

static int grow(buffer *b, size_t more) {
    if (b->len + more <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + more) cap *= 2;
    char *d = PyMem_Realloc(b->data, cap);
    if (!d) { PyErr_NoMemory(); return -1; }
    b->data = d; b->cap = cap;
    return 0;
}

static int put(buffer *b, const void *s, size_t n) {
    if (grow(b, n) < 0) return -1;
    memcpy(b->data + b->len, s, n); b->len += n;
    return 0;
}

/* Whether any byte of w is c (in each of 8 bytes; exact as a whole). */
#define ONES 0x0101010101010101ULL
#define HAS_BYTE(w, c) ((((w) ^ (ONES * (c))) - ONES) & ~((w) ^ (ONES * (c))) & (ONES << 7))

static int put_escaped(buffer *b, const unsigned char *s, size_t n, int quote) {
    if (grow(b, n) < 0) return -1;
    size_t start = 0, i = 0;
    while (i < n) {
        /* 8 bytes at a time while none of them is to be escaped (most text) */
        for (; i + 8 <= n; i += 8) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            if (HAS_BYTE(w, '&') | HAS_BYTE(w, '<') | HAS_BYTE(w, '>') | (quote ? HAS_BYTE(w, '"') : 0)) break;
        }
        if (i >= n) break;
        const char *rep; size_t rl;
        switch (s[i]) {
            case '&': rep = "&amp;"; rl = 5; break;
            case '<': rep = "&lt;"; rl = 4; break;
            case '>': rep = "&gt;"; rl = 4; break;
            case '"': if (!quote) { i++; continue; } rep = "&quot;"; rl = 6; break;
            default: i++; continue;
        }
        if (put(b, s + start, i - start) < 0 || put(b, rep, rl) < 0) return -1;
        start = ++i;
    }
    return put(b, s + start, n - start);
}

static int put_attr(buffer *b, const char *name, size_t len, const unsigned char *v, size_t vl, int escape) {
    if (put(b, " ", 1) < 0 || put(b, name, len) < 0 || put(b, "=\"", 2) < 0) return -1;
    if ((escape ? put_escaped(b, v, vl, 1) : put(b, v, vl)) < 0) return -1;
    return put(b, "\"", 1);
}

typedef struct { PyObject *ids, *idrefs, *dropped_elements, *added_ids; long dropped, comments; } state;

/* The id as the writer makes it unique (xhtml._Writer.unique_id): added to ids. */
static int put_unique_id(buffer *b, state *st, const attr_spec *s, const char *tok, Py_ssize_t m) {
    PyObject *v = PyUnicode_DecodeASCII(tok, m, "strict");
    if (!v) return -1;
    int r = PySet_Contains(st->ids, v);
    for (long k = 2; r == 1; k++) {
        PyObject *c = PyUnicode_FromFormat("%U-%ld", v, k);
        if (!c) { Py_DECREF(v); return -1; }
        r = PySet_Contains(st->ids, c);
        if (r == 0) { Py_DECREF(v); v = c; } else Py_DECREF(c);
    }
    if (r < 0 || PySet_Add(st->ids, v) < 0 || (st->added_ids && PyList_Append(st->added_ids, v) < 0)) {
        Py_DECREF(v);
        return -1;
    }
    Py_ssize_t len;
    const char *u = PyUnicode_AsUTF8AndSize(v, &len);
    int rc = u ? put_attr(b, s->name, s->len, (const unsigned char *)u, (size_t)len, 0) : -1;
    Py_DECREF(v);
    return rc;
}

/* An IDREF(S) attribute: a marker "\0<n>\0", resolved by the writer once every id is known. */
static int put_idref(buffer *b, state *st, const unsigned char *name, size_t len, const unsigned char *v, size_t vl) {
    char mark[32];
    int ml = snprintf(mark, sizeof mark, "%c%zd%c", 0, PyList_GET_SIZE(st->idrefs), 0);
    PyObject *item = Py_BuildValue("(s#N)", (const char *)name, (Py_ssize_t)len,
                                   PyUnicode_DecodeUTF8((const char *)v, (Py_ssize_t)vl, "replace"));
    if (!item) return -1;
    int r = PyList_Append(st->idrefs, item);
    Py_DECREF(item);
    return r < 0 ? -1 : put(b, mark, (size_t)ml);
}

/* xhtml.class_token: "kitten-" and the name lower-cased, each run of characters other
   than [a-z0-9_-] as "-", "-" stripped at both ends ("x" when nothing is left). */
static int put_class_token(buffer *b, const tables *t, lxb_node *n) {
    size_t len = 0;
    const unsigned char *name = t->element_name((lxb_element *)n, &len);
    if (put(b, "kitten-", 7) < 0 || grow(b, len + 1) < 0) return -1;
    size_t start = b->len;
    int dash = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = name[i];
        if (c >= 'A' && c <= 'Z') c += 32;
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-') {
            if (dash && b->len > start) b->data[b->len++] = '-';
            dash = 0;
            b->data[b->len++] = (char)c;
        } else {
            dash = 1;
        }
    }
    while (b->len > start && b->data[b->len - 1] == '-') b->len--;
    size_t lead = 0;
    while (start + lead < b->len && b->data[start + lead] == '-') lead++;
    if (lead) { memmove(b->data + start, b->data + start + lead, b->len - start - lead); b->len -= lead; }
    if (b->len == start) b->data[b->len++] = 'x';
    return 0;
}

/* Classes as xhtml._Writer.attributes joins them: each one after the ones before, with
   a space when there are any (a renamed element's class first, then class attributes
   and semantic tokens in the order of the attributes). */
static int add_class(buffer *cb, const unsigned char *v, size_t vl, int escape) {
    if (cb->len && put(cb, " ", 1) < 0) return -1;
    return escape ? put_escaped(cb, v, vl, 1) : put(cb, v, vl);
}

/* xhtml.semantic_classes(name, value) for an ASCII value, added as a class; 0 when it
   says nothing (the attribute is dropped), -1 on error. which: see semantic_attr. */
static int add_semantic(buffer *cb, int which, const unsigned char *name, size_t name_len, const lxb_str *v) {
    const unsigned char *s = (v && v->data) ? v->data : (const unsigned char *)"";
    size_t n = (v && v->data) ? v->length : 0;
    unsigned char low[SEMANTIC_MAX];
    const unsigned char *tok[4]; size_t tok_len[4]; int k = 0;
    if (n > sizeof low) n = sizeof low; /* (attributes_ok leaves longer values to Python) */
    for (size_t i = 0; i < n; i++) low[i] = (s[i] >= 'A' && s[i] <= 'Z') ? s[i] + 32 : s[i];
    if (which == 4) { /* aria-hidden: "true", stripped */
        size_t i = 0, j = n;
        while (i < j && py_space(low[i])) i++;
        while (j > i && py_space(low[j - 1])) j--;
        if (!(j - i == 4 && memcmp(low + i, "true", 4) == 0)) return 0;
        return add_class(cb, (const unsigned char *)"kitten.aria-hidden", 18, 0) < 0 ? -1 : 1;
    }
    /* the first four words (of itemtype: the last path segment of each URL, empty ones skipped) */
    for (size_t i = 0; i < n && k < 4;) {
        while (i < n && py_space(low[i])) i++;
        size_t start = i;
        while (i < n && !py_space(low[i])) i++;
        if (i == start) break;
        size_t ws = start, we = i;
        if (which == 3) {
            while (we > ws && low[we - 1] == '/') we--;
            for (size_t j = we; j > ws; j--) if (low[j - 1] == '/') { ws = j; break; }
            if (we == ws) continue;
        }
        tok[k] = low + ws; tok_len[k] = we - ws; k++;
    }
    int written = 0;
    for (int i = 0; i < k; i++) {
        const unsigned char *t = tok[i]; size_t tl = tok_len[i];
        int good = t[0] >= 'a' && t[0] <= 'z'; /* [a-z][a-z0-9-]* */
        for (size_t j = 1; good && j < tl; j++)
            good = (t[j] >= 'a' && t[j] <= 'z') || (t[j] >= '0' && t[j] <= '9') || t[j] == '-';
        for (int j = 0; good && j < i; j++) /* each token once */
            if (tok_len[j] == tl && memcmp(tok[j], t, tl) == 0) {
                /* an earlier equal token that was written (a bad one is bad here too) */
                good = 0;
            }
        if (!good) continue;
        if (cb->len && put(cb, " ", 1) < 0) return -1;
        if (put(cb, "kitten.", 7) < 0 || put(cb, name, name_len) < 0 || put(cb, "-", 1) < 0 || put(cb, t, tl) < 0)
            return -1;
        written = 1;
    }
    return written;
}

static int start_tag(const tables *t, buffer *b, buffer *cb, lxb_node *n, const element_spec *e, int renamed,
                     state *st) {
    const lxb_str *style = NULL, *property = NULL;
    int has_style = 0, hidden = 0, hidden_first = 0, has_name = 0, has_property = 0;
    uint32_t present = 0; /* required attributes (e->defaults) the element has */
    unsigned char buf[64];
    cb->len = 0;
    if (put(b, "<", 1) < 0 || put(b, e->name, e->len) < 0) return -1;
    if (renamed && put_class_token(cb, t, n) < 0) return -1; /* the class naming the original, first */
    for (lxb_attr *a = ((lxb_element *)n)->first_attr; a; a = a->next) {
        size_t len = 0;
        const unsigned char *name = t->attr_name(a, &len);
        const attr_spec *s = find_attr(e, name, len);
        const lxb_str *v = a->value;
        const unsigned char *vd = (v && v->data) ? v->data : (const unsigned char *)"";
        size_t vl = (v && v->data) ? v->length : 0;
        for (int j = 0; j < e->n_defaults; j++)
            if (e->defaults[j].len == len && memcmp(e->defaults[j].name, name, len) == 0) present |= 1u << j;
        if (!s) {
            int which;
            if (IS(name, len, "hidden")) { hidden = 1; hidden_first = !has_style; continue; } /* a style */
            if ((e->flags & F_META) && IS(name, len, "property")) { property = v; has_property = 1; }
            if ((e->flags & F_CLASS) && (which = semantic_attr(name, len))) {
                int r = add_semantic(cb, which, name, len, v);
                if (r < 0) return -1;
                if (r == 1) continue;
            }
            st->dropped++;
            continue;
        }
        if ((e->flags & F_META) && IS(name, len, "name")) has_name = 1;
        switch (s->kind) {
            case K_CDATA:
                if (put_attr(b, s->name, s->len, vd, vl, 1) < 0) return -1;
                break;
            case K_CLASS:
                if (add_class(cb, vd, vl, 1) < 0) return -1;
                break;
            case K_STYLE: style = v; has_style = 1; break;
            case K_ENUM: {
                Py_ssize_t m = enum_value(v, name, len, buf, sizeof buf);
                if (m < 0 || !enum_allowed(s, buf, (size_t)m)) { st->dropped++; break; }
                if (put_attr(b, s->name, s->len, buf + 1, (size_t)m, 0) < 0) return -1;
                break;
            }
            case K_ID: case K_NMTOKEN: {
                char *tok;
                Py_ssize_t m = name_token(v, s->kind == K_ID, &tok);
                if (m < 0) return -1;
                if (m == 0) { st->dropped++; break; }
                int r = s->kind == K_ID ? put_unique_id(b, st, s, tok, m)
                                        : put_attr(b, s->name, s->len, (const unsigned char *)tok, (size_t)m, 0);
                PyMem_Free(tok);
                if (r < 0) return -1;
                break;
            }
            case K_IDREF:
                if (put_idref(b, st, name, len, vd, vl) < 0) return -1;
                break;
        }
    }
    /* a meta's Open Graph property, as its name (xhtml._meta_attributes: after the others) */
    if (has_property && !has_name) {
        const unsigned char *pd = (property && property->data) ? property->data : (const unsigned char *)"";
        if (put_attr(b, "name", 4, pd, (property && property->data) ? property->length : 0, 1) < 0) return -1;
    }
    if (e->flags & F_STYLE) {
        /* hidden: "display:none" before the style; the style's own value after a ";"
           unless it came first and is empty (as xhtml._Writer.attributes joins them) */
        size_t sl = (style && style->data) ? style->length : 0;
        if (hidden) {
            if (put(b, " style=\"display:none", 20) < 0) return -1;
            if (has_style && (hidden_first || sl)) {
                if (put(b, ";", 1) < 0 || (sl && put_escaped(b, style->data, sl, 1) < 0)) return -1;
            }
            if (put(b, "\"", 1) < 0) return -1;
        } else if (sl && put_attr(b, "style", 5, style->data, sl, 1) < 0) return -1;
    }
    if (cb->len) {
        if (put(b, " class=\"", 8) < 0 || put(b, cb->data, cb->len) < 0 || put(b, "\"", 1) < 0) return -1;
    }
    for (int j = 0; j < e->n_defaults; j++) {
        const attr_spec *d = &e->defaults[j];
        if (!(present >> j & 1) && put_attr(b, d->name, d->len, (const unsigned char *)d->values, d->values_len, 0) < 0)
            return -1;
    }
    if (e->flags & F_EMPTY) return put(b, " />", 3);
    return put(b, ">", 1);
}

static int end_tag(buffer *b, const element_spec *e) {
    if (e->flags & F_EMPTY) return 0;
    if (put(b, "</", 2) < 0 || put(b, e->name, e->len) < 0) return -1;
    return put(b, ">", 1);
}

/* An element left out (DROPPED): counted by its name in st->dropped_elements. */
/* (*counts)[key] += 1, the dict made when first needed (as SerializeStats.bump). */
static int bump(PyObject **counts, const char *key_s, size_t key_len) {
    if (!*counts && !(*counts = PyDict_New())) return -1;
    PyObject *key = PyUnicode_DecodeASCII(key_s, (Py_ssize_t)key_len, "strict");
    if (!key) return -1;
    PyObject *old = PyDict_GetItemWithError(*counts, key);
    if (!old && PyErr_Occurred()) { Py_DECREF(key); return -1; }
    PyObject *count = PyLong_FromLong(old ? PyLong_AsLong(old) + 1 : 1);
    int r = count ? PyDict_SetItem(*counts, key, count) : -1;
    Py_XDECREF(count);
    Py_DECREF(key);
    return r;
}

static int count_dropped(const tables *t, state *st, lxb_node *n) {
    size_t len = 0;
    const unsigned char *name = t->element_name((lxb_element *)n, &len);
    return bump(&st->dropped_elements, (const char *)name, len);
}

/* Write the marked subtree under root (an element MARK_OK, or left out). */
static int write_subtree(const tables *t, buffer *b, buffer *cb, lxb_node *root, state *st) {
    lxb_node *n = root;
    while (n) {
        if (n->type == NODE_ELEMENT && MARK_DROP(n)) { /* left out, content and all: counted by name */
            if (count_dropped(t, st, n) < 0) return -1;
        } else if (n->type == NODE_ELEMENT) {
            const element_spec *e = &t->elements[MARK_INDEX(n)];
            if (start_tag(t, b, cb, n, e, MARK_RENAMED(n), st) < 0) return -1;
            if (n->first_child) { n = n->first_child; continue; }
            if (end_tag(b, e) < 0) return -1;
        } else if (n->type == NODE_TEXT) {
            lxb_str *d = &((lxb_chardata *)n)->data;
            if (d->data && put_escaped(b, d->data, d->length, 0) < 0) return -1;
        } else {
            st->comments++;
        }
        for (;;) { /* next node: sibling, or climb, closing elements */
            if (n == root) { n = NULL; break; }
            if (n->next) { n = n->next; break; }
            n = n->parent;
            if (end_tag(b, &t->elements[MARK_INDEX(n)]) < 0) return -1;
        }
    }
    return 0;
}

static PyObject *decode_output(buffer *b) {
    return PyUnicode_DecodeUTF8(b->data ? b->data : "", (Py_ssize_t)b->len, "replace");
}

/* subtree(tables, node_address, parent_index, depth_budget, ids, idrefs) -> (xhtml str,
   dropped attributes, comments, element index, {element left out: count} or None), or
   None when the element is not one this module writes in the open output element
   parent_index. ids (a set) and idrefs (a list) are the writer's, updated as it would. */
static PyObject *subtree(PyObject *self, PyObject *args) {
    PyObject *capsule; unsigned long long addr; long budget; int parent;
    state st = {NULL, NULL, NULL, NULL, 0, 0};
    if (!PyArg_ParseTuple(args, "OKilO!O!", &capsule, &addr, &parent, &budget, &PySet_Type, &st.ids,
                          &PyList_Type, &st.idrefs))
        return NULL;
    const tables *t = PyCapsule_GetPointer(capsule, "kitten.fastwrite.tables");
    if (!t) return NULL;
    lxb_node *root = (lxb_node *)(uintptr_t)addr;
    if (root->type != NODE_ELEMENT || !MARK_OK(root) || (long)MARK_HEIGHT(root) >= budget) Py_RETURN_NONE;
    int root_ix = MARK_INDEX(root);
    if (parent < 0 || parent >= t->n_elements || !has_bit(t->elements[parent].fast, root_ix)) Py_RETURN_NONE;
    buffer b = {NULL, 0, 0}, cb = {NULL, 0, 0};
    PyObject *s = write_subtree(t, &b, &cb, root, &st) < 0 ? NULL : decode_output(&b);
    PyMem_Free(b.data);
    PyMem_Free(cb.data);
    if (!s) { Py_XDECREF(st.dropped_elements); return NULL; }
    if (!st.dropped_elements) { Py_INCREF(Py_None); st.dropped_elements = Py_None; }
    return Py_BuildValue("(NlliN)", s, st.dropped, st.comments, root_ix, st.dropped_elements);
}

/* run(tables, node_address, parent_index, depth_budget, wrapper, ids, idrefs): the node
   and the siblings after it, as long as the writer would write each as it is in the open
   output element parent_index (a wrapper when `wrapper`), which it does not change: text
   where text may stand (white space anywhere), comments, elements left out, and subtrees
   `subtree` writes (not renamed ones in a wrapper, which may close for them). None when
   not even the first is; else (xhtml, dropped attributes, comments, nodes written or -1
   for all, [element indexes written] for a parent whose children are counted (else
   None), {element left out: count} or None). */
static PyObject *run(PyObject *self, PyObject *args) {
    PyObject *capsule; unsigned long long addr; long budget; int parent, wrapper;
    state st = {NULL, NULL, NULL, NULL, 0, 0};
    if (!PyArg_ParseTuple(args, "OKilpO!O!", &capsule, &addr, &parent, &budget, &wrapper, &PySet_Type, &st.ids,
                          &PyList_Type, &st.idrefs))
        return NULL;
    const tables *t = PyCapsule_GetPointer(capsule, "kitten.fastwrite.tables");
    if (!t) return NULL;
    if (parent < 0 || parent >= t->n_elements) Py_RETURN_NONE;
    const element_spec *pe = &t->elements[parent];
    int pcdata = pe->flags & F_PCDATA;
    PyObject *written = NULL;
    buffer b = {NULL, 0, 0}, cb = {NULL, 0, 0};
    lxb_node *n = (lxb_node *)(uintptr_t)addr;
    long k = 0;
    for (; n; n = n->next, k++) {
        if (n->type == NODE_TEXT) {
            lxb_str *d = &((lxb_chardata *)n)->data;
            if (!d->data || !d->length) continue;
            if (pcdata) { if (put_escaped(&b, d->data, d->length, 0) < 0) goto fail; }
            else if (!is_xml_space(d->data, d->length)) break;
            else if (put(&b, d->data, d->length) < 0) goto fail;
        } else if (n->type == NODE_COMMENT) {
            st.comments++;
        } else if (n->type != NODE_ELEMENT) {
            break;
        } else if (MARK_DROP(n)) {
            if (count_dropped(t, &st, n) < 0) goto fail;
        } else {
            int ix = MARK_INDEX(n);
            if (!MARK_OK(n) || (long)MARK_HEIGHT(n) >= budget || !has_bit(pe->fast, ix)
                || (wrapper && MARK_RENAMED(n)))
                break;
            if (write_subtree(t, &b, &cb, n, &st) < 0) goto fail;
            if (pe->flags & F_TRACKED) {
                PyObject *i = PyLong_FromLong(ix);
                if (!i || ((!written && !(written = PyList_New(0))) || PyList_Append(written, i) < 0)) {
                    Py_XDECREF(i);
                    goto fail;
                }
                Py_DECREF(i);
            }
        }
    }
    PyMem_Free(cb.data);
    if (k == 0) { PyMem_Free(b.data); Py_XDECREF(st.dropped_elements); Py_RETURN_NONE; }
    PyObject *s = decode_output(&b);
    PyMem_Free(b.data);
    if (!s) { Py_XDECREF(written); Py_XDECREF(st.dropped_elements); return NULL; }
    if (!written) { Py_INCREF(Py_None); written = Py_None; }
    if (!st.dropped_elements) { Py_INCREF(Py_None); st.dropped_elements = Py_None; }
    return Py_BuildValue("(NllnNN)", s, st.dropped, st.comments, (Py_ssize_t)(n ? k : -1), written,
                         st.dropped_elements);
fail:
    PyMem_Free(b.data);
    PyMem_Free(cb.data);
    Py_XDECREF(written);
    Py_XDECREF(st.dropped_elements);
    return NULL;
}

/* ---- placing: subtrees with elements the writer renames where they stand ---------- */
#define MAX_PATH 256
typedef struct {
    const tables *t; buffer *b, *cb; state *st;
    PyObject *renamed;        /* {"orig>new": count}, as xhtml.SerializeStats.renamed */
    const int *chain; int n_chain; /* the writer's open elements below (see place_subtree) */
    int path[MAX_PATH]; int depth; /* the elements entered here (written as), the first first */
    long budget;
    lxb_node *stop;           /* where it gave up */
} placer;

/* Where _Writer.place looks for an ancestor that accepts x, above the open elements
   that may be split (SPLITTABLE): 1 when it finds one (the writer splits; not done
   here), 0 when not (place() fails), -1 when it cannot be told here. */
static int split_target(const placer *p, int x) {
    int pos = p->depth - 1; /* >= 0: p->path[pos]; < 0: p->chain[-pos - 1] */
    for (;;) {
        int ix = pos >= 0 ? p->path[pos] : (-pos - 1 < p->n_chain ? p->chain[-pos - 1] : -1);
        if (ix < 0) return -1;
        if (!(p->t->elements[ix].flags & F_SPLIT)) return 0;
        pos--;
        int up = pos >= 0 ? p->path[pos] : (-pos - 1 < p->n_chain ? p->chain[-pos - 1] : -1);
        if (up == -2) return 0;   /* below the document element */
        if (up < 0) return -1;
        if (has_bit(p->t->elements[up].children, x)) return 1;
    }
}

static int count_renamed(placer *p, lxb_node *n, int to) {
    size_t len = 0;
    const unsigned char *name = p->t->element_name((lxb_element *)n, &len);
    const element_spec *e = &p->t->elements[to];
    buffer k = {NULL, 0, 0}; /* "orig>new" */
    int r = (put(&k, name, len) < 0 || put(&k, ">", 1) < 0 || put(&k, e->name, e->len) < 0)
            ? -1 : bump(&p->renamed, k.data, k.len);
    PyMem_Free(k.data);
    return r;
}

static int place_element(placer *p, lxb_node *n, int ix, int renamed);

/* A child of the element entered last, as _Writer.start/text place it: 0 written (or
   left out), 1 when the writer must decide (a split, wrappers, text where none may
   stand ...), -1 on error. */
static int place_child(placer *p, lxb_node *k) {
    const element_spec *e = &p->t->elements[p->path[p->depth - 1]];
    if (k->type == NODE_TEXT) {
        lxb_str *d = &((lxb_chardata *)k)->data;
        if (!d->data || !d->length) return 0;
        if (e->flags & F_PCDATA) return put_escaped(p->b, d->data, d->length, 0) < 0 ? -1 : 0;
        if (!is_xml_space(d->data, d->length)) { p->stop = k; return 1; }
        return put(p->b, d->data, d->length) < 0 ? -1 : 0;
    }
    if (k->type == NODE_COMMENT) { p->st->comments++; return 0; }
    if (k->type != NODE_ELEMENT) { p->stop = k; return 1; }
    if (MARK_DROP(k)) return count_dropped(p->t, p->st, k) < 0 ? -1 : 0;
    int ix = MARK_INDEX(k);
    if (ix < 0) { p->stop = k; return 1; }
    if (has_bit(e->children, ix)) { /* where it may stand: as it is */
        if (MARK_OK(k) && has_bit(e->fast, ix) && p->depth + (long)MARK_HEIGHT(k) < p->budget)
            return write_subtree(p->t, p->b, p->cb, k, p->st) < 0 ? -1 : 0;
        return place_element(p, k, ix, MARK_RENAMED(k));
    }
    /* place() fails unless it splits; then the element is dropped or renamed (start) */
    if (split_target(p, ix)) { p->stop = k; return 1; }
    const element_spec *x = &p->t->elements[ix];
    if ((x->flags & F_DROP_MISPLACED) || (!k->first_child && !(x->flags & F_VOID)))
        return count_dropped(p->t, p->st, k) < 0 ? -1 : 0;
    /* (no wrappers: the elements entered here are not lists, tables or selects) */
    int block = MARK_RENAMED(k) ? ix != p->t->span_index : (x->flags & F_BLOCK) != 0;
    int prefs[2] = {block ? p->t->div_index : p->t->span_index, block ? p->t->span_index : p->t->div_index};
    for (int i = 0; i < 2; i++) {
        if (has_bit(e->children, prefs[i])) {
            if (count_renamed(p, k, prefs[i]) < 0) return -1;
            return place_element(p, k, prefs[i], 1);
        }
        if (split_target(p, prefs[i])) { p->stop = k; return 1; }
    }
    p->stop = k; /* unwrapped */
    return 1;
}

/* Element n written as element ix (renamed: with the class naming the original), then
   its children placed in it. */
static int place_element(placer *p, lxb_node *n, int ix, int renamed) {
    const element_spec *e = &p->t->elements[ix];
    if (MARK_NO_PLACE(n) || p->depth >= p->budget || p->depth >= MAX_PATH
        || (e->flags & (F_EXCLUDED | F_TRACKED | F_DROP)) || ((e->flags & F_EMPTY) && n->first_child)
        || !attributes_ok(p->t, e, n)) {
        p->stop = n;
        return 1;
    }
    if (start_tag(p->t, p->b, p->cb, n, e, renamed, p->st) < 0) return -1;
    p->path[p->depth++] = ix;
    for (lxb_node *k = n->first_child; k; k = k->next) {
        int r = place_child(p, k);
        if (r) return r;
    }
    p->depth--;
    return end_tag(p->b, e);
}

/* place_subtree(tables, node_address, element index, renamed, chain, depth_budget, ids,
   idrefs) -> (xhtml, dropped attributes, comments, {element left out: count} or None,
   {"orig>new": count} or None) or None: the element at node_address, which the writer
   has placed as element `index` (with the class naming the original when `renamed`),
   and its content as the writer places it, as long as that needs no split, wrapper or
   unwrapping. chain: the indexes of the writer's open elements from the one it is
   placed in down, as far as _Writer.place may look (-1: one this module cannot judge,
   -2: the bottom). Gives up without a trace (ids and IDREFs as they were); the
   elements from the node down to where it gave up are not tried again. */
static PyObject *place_subtree(PyObject *self, PyObject *args) {
    PyObject *capsule, *chain_seq; unsigned long long addr; int ix, renamed; long budget;
    state st = {NULL, NULL, NULL, NULL, 0, 0};
    if (!PyArg_ParseTuple(args, "OKipOlO!O!", &capsule, &addr, &ix, &renamed, &chain_seq, &budget, &PySet_Type,
                          &st.ids, &PyList_Type, &st.idrefs))
        return NULL;
    const tables *t = PyCapsule_GetPointer(capsule, "kitten.fastwrite.tables");
    if (!t) return NULL;
    lxb_node *root = (lxb_node *)(uintptr_t)addr;
    if (root->type != NODE_ELEMENT || ix < 0 || ix >= t->n_elements || MARK_NO_PLACE(root)) Py_RETURN_NONE;
    int chain[16]; int n_chain = 0;
    PyObject *fast_chain = PySequence_Fast(chain_seq, "chain must be a sequence");
    if (!fast_chain) return NULL;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast_chain) && n_chain < 16; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast_chain, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast_chain); return NULL; }
        chain[n_chain++] = (v >= t->n_elements) ? -1 : (int)v;
    }
    Py_DECREF(fast_chain);
    buffer b = {NULL, 0, 0}, cb = {NULL, 0, 0};
    Py_ssize_t n_idrefs = PyList_GET_SIZE(st.idrefs);
    if (!(st.added_ids = PyList_New(0))) return NULL;
    placer p = {t, &b, &cb, &st, NULL, chain, n_chain, {0}, 0, budget, NULL};
    int r = place_element(&p, root, ix, renamed);
    PyObject *result = NULL;
    if (r == 0) {
        PyObject *out = decode_output(&b);
        if (out) {
            if (!st.dropped_elements) { Py_INCREF(Py_None); st.dropped_elements = Py_None; }
            if (!p.renamed) { Py_INCREF(Py_None); p.renamed = Py_None; }
            result = Py_BuildValue("(NllNN)", out, st.dropped, st.comments, st.dropped_elements, p.renamed);
            st.dropped_elements = p.renamed = NULL;
        }
    } else { /* undo: the ids added, the IDREFs recorded; not again from here to the stop */
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(st.added_ids); i++)
            if (PySet_Discard(st.ids, PyList_GET_ITEM(st.added_ids, i)) < 0) r = -1;
        if (PyList_SetSlice(st.idrefs, n_idrefs, PyList_GET_SIZE(st.idrefs), NULL) < 0) r = -1;
        for (lxb_node *n = p.stop; n && r == 1; n = n->parent) {
            if (n->type == NODE_ELEMENT) SET_NO_PLACE(n);
            if (n == root) break;
        }
        if (r == 1) { Py_INCREF(Py_None); result = Py_None; }
    }
    PyMem_Free(b.data);
    PyMem_Free(cb.data);
    Py_XDECREF(st.added_ids);
    Py_XDECREF(st.dropped_elements);
    Py_XDECREF(p.renamed);
    return result;
}

/* probe(tables, node_address) -> (element index or -1, ok, height, [(name, value)], text):
   what this module reads of a node, for the layout check in xhtml.py */
static PyObject *probe(PyObject *self, PyObject *args) {
    PyObject *capsule; unsigned long long addr;
    if (!PyArg_ParseTuple(args, "OK", &capsule, &addr)) return NULL;
    const tables *t = PyCapsule_GetPointer(capsule, "kitten.fastwrite.tables");
    if (!t) return NULL;
    lxb_node *n = (lxb_node *)(uintptr_t)addr;
    PyObject *attrs = PyList_New(0), *text = Py_None;
    if (!attrs) return NULL;
    Py_INCREF(text);
    int ix = -1;
    if (n->type == NODE_ELEMENT) {
        int renamed;
        ix = element_index(t, n, &renamed);
        for (lxb_attr *a = ((lxb_element *)n)->first_attr; a; a = a->next) {
            size_t len = 0;
            const unsigned char *name = t->attr_name(a, &len);
            PyObject *item = Py_BuildValue("(s#s#)", name, (Py_ssize_t)len,
                                           (a->value && a->value->data) ? (char *)a->value->data : "",
                                           (Py_ssize_t)((a->value && a->value->data) ? a->value->length : 0));
            if (!item || PyList_Append(attrs, item) < 0) { Py_XDECREF(item); Py_DECREF(attrs); Py_DECREF(text); return NULL; }
            Py_DECREF(item);
        }
    } else if (n->type == NODE_TEXT) {
        lxb_str *d = &((lxb_chardata *)n)->data;
        Py_DECREF(text);
        text = PyUnicode_DecodeUTF8(d->data ? (char *)d->data : "", d->data ? (Py_ssize_t)d->length : 0, "replace");
        if (!text) { Py_DECREF(attrs); return NULL; }
    }
    return Py_BuildValue("(iikNN)", ix, (int)MARK_OK(n), (unsigned long)MARK_HEIGHT(n), attrs, text);
}

/* Characters XML 1.0 does not allow (xhtml._ILLEGAL_XML): vertical tab and form feed
   become spaces, the others go. xml_clean(s) -> s itself when there are none. */
/* Whether a control character (below 0x20) is one XML does not allow: all but tab, LF, CR. */
#define BAD_CONTROL(c) (((c) < 0x20) & ((c) != 9) & ((c) != 10) & ((c) != 13))
#define BLOCK 64 /* characters tested together, without a branch per character (vectorized) */

/* The index of the first illegal character of d[i:n] (n if none): whole blocks are
   skipped while none of their characters is illegal, then read one by one. */
#define NEXT_ILLEGAL(T, TEST)                                                     \
    static Py_ssize_t next_illegal_##T(const T *d, Py_ssize_t i, Py_ssize_t n) {  \
        for (; i + BLOCK <= n; i += BLOCK) {                                      \
            unsigned bad = 0;                                                     \
            for (int j = 0; j < BLOCK; j++) { T c = d[i + j]; bad |= TEST; }      \
            if (bad) break;                                                       \
        }                                                                         \
        while (i < n) { T c = d[i]; if (TEST) break; i++; }                       \
        return i;                                                                 \
    }
NEXT_ILLEGAL(Py_UCS1, BAD_CONTROL(c))
NEXT_ILLEGAL(Py_UCS2, BAD_CONTROL(c) | ((Py_UCS2)(c - 0xD800) < 0x800) | (c >= 0xFFFE))
NEXT_ILLEGAL(Py_UCS4, BAD_CONTROL(c) | ((Py_UCS4)(c - 0xD800) < 0x800) | ((Py_UCS4)(c - 0xFFFE) < 2))

static Py_ssize_t next_illegal(int kind, const void *data, Py_ssize_t i, Py_ssize_t n) {
    if (kind == PyUnicode_1BYTE_KIND) return next_illegal_Py_UCS1(data, i, n);
    if (kind == PyUnicode_2BYTE_KIND) return next_illegal_Py_UCS2(data, i, n);
    return next_illegal_Py_UCS4(data, i, n);
}

/* n characters of src (of kind sk) from index j, written at index m of dst (of kind dk). */
static void copy_chars(char *dst, int dk, Py_ssize_t m, const char *src, int sk, Py_ssize_t j, Py_ssize_t n) {
    if (dk == sk) { memcpy(dst + m * dk, src + j * sk, (size_t)n * sk); return; }
    for (Py_ssize_t i = 0; i < n; i++) PyUnicode_WRITE(dk, dst, m + i, PyUnicode_READ(sk, src, j + i));
}

/* What the character at i, one next_illegal found, becomes: CUT (left out), SPACE (VT
   and FF), MARK (an IDREF marker "\0<v>\0", up to *end), or PYTHON (a marker it does not
   read, other digits or out of range: the Python writer decides). nr < 0: no markers. */
enum { CUT, SPACE, MARK, PYTHON };
static int illegal_at(int kind, const void *data, Py_ssize_t n, Py_ssize_t i, Py_ssize_t nr, Py_ssize_t *end,
                      long *v) {
    Py_UCS4 c = PyUnicode_READ(kind, data, i);
    *end = i + 1;
    if (c == 0x0B || c == 0x0C) return SPACE;
    if (c != 0 || nr < 0) return CUT;
    Py_ssize_t j = i + 1;
    Py_UCS4 d = 0;
    *v = 0;
    while (j < n && (d = PyUnicode_READ(kind, data, j)) >= '0' && d <= '9' && j - i <= 10) {
        *v = *v * 10 + (long)(d - '0');
        j++;
    }
    if (j < n && ((d >= '0' && d <= '9') || (d >= 0x80 && Py_UNICODE_ISDIGIT(d)))) return PYTHON;
    if (j == i + 1 || j == n || d != 0) return CUT; /* not a marker: a NUL */
    if (*v >= nr) return PYTHON;
    *end = j + 1;
    return MARK;
}

/* The largest character s keeps (as the class PyUnicode_New takes: 127, 255, 0xFFFF or
   0x10FFFF): illegal characters are below 0x20 or in the BMP, so only a string of two
   bytes a character may narrow. */
static Py_UCS4 kept_max_char(PyObject *s) {
    if (PyUnicode_KIND(s) != PyUnicode_2BYTE_KIND) return PyUnicode_MAX_CHAR_VALUE(s);
    const Py_UCS2 *d = PyUnicode_DATA(s);
    Py_UCS4 max = 127;
    for (Py_ssize_t i = 0, n = PyUnicode_GET_LENGTH(s); i < n; i++) {
        Py_UCS2 c = d[i];
        if (c >= 0x100 && !((c >= 0xD800 && c <= 0xDFFF) || c >= 0xFFFE)) return 0xFFFF;
        if (c >= 0x80 && c < 0x100) max = 255;
    }
    return max;
}

/* s without the characters XML does not allow (vertical tab and form feed become
   spaces, the others go; xhtml._ILLEGAL_XML) and, with reps, each IDREF marker
   "\0<n>\0" replaced by reps[n] first (xhtml._Writer.finish: _IDREF_MARK.sub, then
   xml_clean): s itself when there is nothing to do, None when the Python writer must
   do it. Two passes (the length, then the characters, into the new string). */
static PyObject *clean_doc(PyObject *s, PyObject *reps) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(s), nr = reps ? PyList_GET_SIZE(reps) : -1;
    int kind = PyUnicode_KIND(s);
    const char *data = PyUnicode_DATA(s);
    for (Py_ssize_t r = 0; r < nr; r++) {
        PyObject *x = PyList_GET_ITEM(reps, r);
        if (!PyUnicode_Check(x)) { PyErr_SetString(PyExc_TypeError, "finish() needs str attributes"); return NULL; }
        if (next_illegal(PyUnicode_KIND(x), PyUnicode_DATA(x), 0, PyUnicode_GET_LENGTH(x)) < PyUnicode_GET_LENGTH(x))
            Py_RETURN_NONE;
    }
    Py_ssize_t first = next_illegal(kind, data, 0, n);
    if (first == n) { Py_INCREF(s); return s; } /* most pages */
    Py_UCS4 max = kept_max_char(s);
    Py_ssize_t m = 0, done = 0, end; long v;
    for (Py_ssize_t i = first; i < n; i = next_illegal(kind, data, done, n)) {
        m += i - done;
        switch (illegal_at(kind, data, n, i, nr, &end, &v)) {
            case PYTHON: Py_RETURN_NONE;
            case SPACE: m++; break;
            case MARK: {
                PyObject *x = PyList_GET_ITEM(reps, v);
                m += PyUnicode_GET_LENGTH(x);
                if (PyUnicode_MAX_CHAR_VALUE(x) > max) max = PyUnicode_MAX_CHAR_VALUE(x);
                break;
            }
        }
        done = end;
    }
    m += n - done;
    PyObject *out = PyUnicode_New(m, max);
    if (!out) return NULL;
    int ok = PyUnicode_KIND(out);
    char *o = PyUnicode_DATA(out);
    m = done = 0;
    for (Py_ssize_t i = first; i < n; i = next_illegal(kind, data, done, n)) {
        copy_chars(o, ok, m, data, kind, done, i - done);
        m += i - done;
        switch (illegal_at(kind, data, n, i, nr, &end, &v)) {
            case SPACE: PyUnicode_WRITE(ok, o, m++, ' '); break;
            case MARK: {
                PyObject *x = PyList_GET_ITEM(reps, v);
                copy_chars(o, ok, m, PyUnicode_DATA(x), PyUnicode_KIND(x), 0, PyUnicode_GET_LENGTH(x));
                m += PyUnicode_GET_LENGTH(x);
                break;
            }
        }
        done = end;
    }
    copy_chars(o, ok, m, data, kind, done, n - done);
    return out;
}

static PyObject *xml_clean(PyObject *self, PyObject *s) {
    if (!PyUnicode_Check(s)) { PyErr_SetString(PyExc_TypeError, "xml_clean() needs a str"); return NULL; }
    return clean_doc(s, NULL);
}

/* finish(doc, attributes): clean_doc with IDREF markers (xhtml._Writer.finish). */
static PyObject *finish(PyObject *self, PyObject *args) {
    PyObject *s, *reps;
    if (!PyArg_ParseTuple(args, "UO!", &s, &PyList_Type, &reps)) return NULL;
    return clean_doc(s, reps);
}

static PyMethodDef methods[] = {
    {"xml_clean", xml_clean, METH_O, "The text without characters XML does not allow."},
    {"finish", finish, METH_VARARGS, "IDREF markers replaced, characters XML does not allow removed."},
    {"make_tables", make_tables, METH_VARARGS, "Tables from the DTD (a capsule)."},
    {"prepare", prepare, METH_VARARGS, "Mark the subtrees under a node that subtree() writes."},
    {"subtree", subtree, METH_VARARGS,
     "Write a marked subtree: (xhtml, dropped attributes, comments, element, dropped elements) or None."},
    {"run", run, METH_VARARGS, "Write a run of siblings the writer copies as they are (see the comment)."},
    {"place_subtree", place_subtree, METH_VARARGS, "Write an element placed by the writer and its content."},
    {"probe", probe, METH_VARARGS, "What is read of a node (layout check)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fastwrite", NULL, 0, methods};

PyMODINIT_FUNC PyInit__fastwrite(void) { return PyModule_Create(&module); }
