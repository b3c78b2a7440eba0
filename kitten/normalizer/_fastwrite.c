/*
 * kitten.normalizer._fastwrite: the XHTML writer's common case in C.
 *
 * Most of a page is subtrees that the writer (xhtml.py) copies as they are: known
 * XHTML elements where their parent allows them, attributes that are dropped,
 * copied or lower-cased, text where text may stand. This module finds those
 * subtrees in lexbor's tree in one pass and writes each of them in C; the Python
 * writer handles everything else (renaming, splitting, wrapping, ids, tables,
 * head) and calls `subtree` for an element whose parent it has written as is.
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
enum { F_EMPTY = 1, F_PCDATA = 2, F_TRACKED = 4, F_EXCLUDED = 8 };

typedef struct {
    char *name; size_t len;
    int kind;
    char *values; size_t values_len; /* K_ENUM: "\0v1\0v2\0" */
} attr_spec;

typedef struct {
    char *name; size_t len;
    int flags;
    uint64_t fast[WORDS], required[WORDS];
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
    int n_renames, span_index;
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
               [(name, flags, fast, required, attrs, defaults)], [(name, index, b"")], span index) */
static PyObject *make_tables(PyObject *self, PyObject *args) {
    unsigned long long fn, el_fn; PyObject *tag_map, *elements, *renames; int span_index;
    if (!PyArg_ParseTuple(args, "KKO!O!O!i", &fn, &el_fn, &PyDict_Type, &tag_map, &PyList_Type, &elements,
                          &PyList_Type, &renames, &span_index)) return NULL;
    if (PyList_GET_SIZE(renames) > MAX_RENAMES) { PyErr_SetString(PyExc_ValueError, "too many renames"); return NULL; }
    if (PyList_GET_SIZE(elements) > MAX_ELEMENTS) { PyErr_SetString(PyExc_ValueError, "too many elements"); return NULL; }
    tables *t = PyMem_Calloc(1, sizeof(tables));
    if (!t) return PyErr_NoMemory();
    PyObject *capsule = PyCapsule_New(t, "kitten.fastwrite.tables", free_tables);
    if (!capsule) { PyMem_Free(t); return NULL; }
    t->attr_name = (qname_fn)(uintptr_t)fn;
    t->element_name = (el_qname_fn)(uintptr_t)el_fn;
    t->span_index = span_index;
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
        PyObject *name, *fast, *req, *attrs, *defaults; int flags;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(elements, i), "SiOOO!O!", &name, &flags, &fast, &req,
                              &PyList_Type, &attrs, &PyList_Type, &defaults)) goto fail;
        element_spec *e = &t->elements[i];
        t->n_elements = (int)i + 1;
        e->flags = flags;
        if (!(e->name = copy_bytes(name, &e->len))) goto fail;
        if (read_bitset(fast, e->fast) < 0 || read_bitset(req, e->required) < 0) goto fail;
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
   the one it is renamed to (*renamed = 1); -1 when the Python writer must decide. */
static int element_index(const tables *t, const lxb_node *n, int *renamed) {
    int ix = known_index(t, n);
    *renamed = 0;
    if (ix >= 0) return ix;
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

/* Whether an element's own attributes are all handled here. */
static int attributes_ok(const tables *t, const element_spec *e, lxb_node *n) {
    unsigned char buf[64];
    for (lxb_attr *a = ((lxb_element *)n)->first_attr; a; a = a->next) {
        size_t len = 0;
        const unsigned char *name = t->attr_name(a, &len);
        if (!name) return 0;
        const attr_spec *s = find_attr(e, name, len);
        if (!s) {
            if (len == 6 && memcmp(name, "hidden", 6) == 0) return 0; /* becomes a style */
            /* xhtml.SEMANTIC_ATTRS: become class tokens, written by the Python writer */
            if ((len == 4 && memcmp(name, "role", 4) == 0) || (len == 8 && memcmp(name, "itemprop", 8) == 0)
                || (len == 8 && memcmp(name, "itemtype", 8) == 0) || (len == 11 && memcmp(name, "aria-hidden", 11) == 0))
                return 0;
            continue;                                               /* dropped */
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
#define MARK(ok, renamed, ix, h) \
    ((void *)(((uintptr_t)(h) << 10) | ((uintptr_t)((ix) + 1) << 2) | ((renamed) ? 2 : 0) | ((ok) ? 1 : 0)))
#define MARK_OK(n) (((uintptr_t)(n)->user) & 1)
#define MARK_RENAMED(n) ((((uintptr_t)(n)->user) >> 1) & 1)
#define MARK_INDEX(n) ((int)((((uintptr_t)(n)->user) >> 2) & 0xFF) - 1)
#define MARK_HEIGHT(n) (((uintptr_t)(n)->user) >> 10)

static void mark_element(const tables *t, lxb_node *n) {
    int renamed, ix = element_index(t, n, &renamed);
    const element_spec *e = ix >= 0 ? &t->elements[ix] : NULL;
    int ok = e && !(e->flags & F_EXCLUDED) && attributes_ok(t, e, n);
    uintptr_t height = 0; int required = 0;
    for (lxb_node *c = n->first_child; c; c = c->next) {
        if (c->type == NODE_ELEMENT) {
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
    n->user = MARK(ok, renamed, ix, height);
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

static int put_escaped(buffer *b, const unsigned char *s, size_t n, int quote) {
    if (grow(b, n) < 0) return -1;
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        const char *rep; size_t rl;
        switch (s[i]) {
            case '&': rep = "&amp;"; rl = 5; break;
            case '<': rep = "&lt;"; rl = 4; break;
            case '>': rep = "&gt;"; rl = 4; break;
            case '"': if (!quote) continue; rep = "&quot;"; rl = 6; break;
            default: continue;
        }
        if (put(b, s + start, i - start) < 0 || put(b, rep, rl) < 0) return -1;
        start = i + 1;
    }
    return put(b, s + start, n - start);
}

static int put_attr(buffer *b, const char *name, size_t len, const unsigned char *v, size_t vl, int escape) {
    if (put(b, " ", 1) < 0 || put(b, name, len) < 0 || put(b, "=\"", 2) < 0) return -1;
    if ((escape ? put_escaped(b, v, vl, 1) : put(b, v, vl)) < 0) return -1;
    return put(b, "\"", 1);
}

typedef struct { PyObject *ids, *idrefs; long dropped, comments; } state;

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
    if (r < 0 || PySet_Add(st->ids, v) < 0) { Py_DECREF(v); return -1; }
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

static int start_tag(const tables *t, buffer *b, lxb_node *n, const element_spec *e, int renamed, state *st) {
    const lxb_str *style = NULL, *cls = NULL;
    int has_class = 0;
    uint32_t present = 0; /* required attributes (e->defaults) the element has */
    unsigned char buf[64];
    if (put(b, "<", 1) < 0 || put(b, e->name, e->len) < 0) return -1;
    for (lxb_attr *a = ((lxb_element *)n)->first_attr; a; a = a->next) {
        size_t len = 0;
        const unsigned char *name = t->attr_name(a, &len);
        const attr_spec *s = find_attr(e, name, len);
        const lxb_str *v = a->value;
        const unsigned char *vd = (v && v->data) ? v->data : (const unsigned char *)"";
        size_t vl = (v && v->data) ? v->length : 0;
        for (int j = 0; j < e->n_defaults; j++)
            if (e->defaults[j].len == len && memcmp(e->defaults[j].name, name, len) == 0) present |= 1u << j;
        if (!s) { st->dropped++; continue; }
        switch (s->kind) {
            case K_CDATA:
                if (put_attr(b, s->name, s->len, vd, vl, 1) < 0) return -1;
                break;
            case K_CLASS: cls = v; has_class = 1; break;
            case K_STYLE: style = v; break;
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
    if (style && style->data && style->length && put_attr(b, "style", 5, style->data, style->length, 1) < 0) return -1;
    if (renamed) { /* the class naming the original, before the element's own classes */
        if (put(b, " class=\"", 8) < 0 || put_class_token(b, t, n) < 0) return -1;
        if (has_class && (put(b, " ", 1) < 0 || (cls && cls->data && put_escaped(b, cls->data, cls->length, 1) < 0)))
            return -1;
        if (put(b, "\"", 1) < 0) return -1;
    } else if (cls && cls->data && cls->length && put_attr(b, "class", 5, cls->data, cls->length, 1) < 0) return -1;
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

/* subtree(tables, node_address, parent_index, depth_budget, ids, idrefs) -> (xhtml str,
   dropped attributes, comments, element index), or None when the element is not one
   this module writes in the open output element parent_index. ids (a set) and idrefs
   (a list) are the writer's, updated as it would. */
static PyObject *subtree(PyObject *self, PyObject *args) {
    PyObject *capsule; unsigned long long addr; long budget; int parent;
    state st = {NULL, NULL, 0, 0};
    if (!PyArg_ParseTuple(args, "OKilO!O!", &capsule, &addr, &parent, &budget, &PySet_Type, &st.ids,
                          &PyList_Type, &st.idrefs))
        return NULL;
    const tables *t = PyCapsule_GetPointer(capsule, "kitten.fastwrite.tables");
    if (!t) return NULL;
    lxb_node *root = (lxb_node *)(uintptr_t)addr;
    if (root->type != NODE_ELEMENT || !MARK_OK(root) || (long)MARK_HEIGHT(root) >= budget) Py_RETURN_NONE;
    int root_ix = MARK_INDEX(root);
    if (parent < 0 || parent >= t->n_elements || !has_bit(t->elements[parent].fast, root_ix)) Py_RETURN_NONE;
    buffer b = {NULL, 0, 0};
    lxb_node *n = root;
    while (n) {
        if (n->type == NODE_ELEMENT) {
            const element_spec *e = &t->elements[MARK_INDEX(n)];
            if (start_tag(t, &b, n, e, MARK_RENAMED(n), &st) < 0) goto fail;
            if (n->first_child) { n = n->first_child; continue; }
            if (end_tag(&b, e) < 0) goto fail;
        } else if (n->type == NODE_TEXT) {
            lxb_str *d = &((lxb_chardata *)n)->data;
            if (d->data && put_escaped(&b, d->data, d->length, 0) < 0) goto fail;
        } else {
            st.comments++;
        }
        for (;;) { /* next node: sibling, or climb, closing elements */
            if (n == root) { n = NULL; break; }
            if (n->next) { n = n->next; break; }
            n = n->parent;
            if (end_tag(&b, &t->elements[MARK_INDEX(n)]) < 0) goto fail;
        }
    }
    PyObject *s = PyUnicode_DecodeUTF8(b.data ? b.data : "", (Py_ssize_t)b.len, "replace");
    PyMem_Free(b.data);
    if (!s) return NULL;
    return Py_BuildValue("(Nlli)", s, st.dropped, st.comments, root_ix);
fail:
    PyMem_Free(b.data);
    return NULL;
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
static int illegal(Py_UCS4 c) {
    return (c < 0x20 && c != 9 && c != 10 && c != 13) || c == 0xFFFE || c == 0xFFFF || (c >= 0xD800 && c <= 0xDFFF);
}

static PyObject *xml_clean(PyObject *self, PyObject *s) {
    if (!PyUnicode_Check(s)) { PyErr_SetString(PyExc_TypeError, "xml_clean() needs a str"); return NULL; }
    Py_ssize_t n = PyUnicode_GET_LENGTH(s), i = 0;
    int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    /* the first illegal character; most pages have none (ranges tested without branches per kind) */
    if (kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *d = data;
        while (i < n && (d[i] >= 0x20 || d[i] == 9 || d[i] == 10 || d[i] == 13)) i++;
    } else if (kind == PyUnicode_2BYTE_KIND) {
        const Py_UCS2 *d = data;
        while (i < n && ((d[i] >= 0x20 && (d[i] < 0xD800 || (d[i] > 0xDFFF && d[i] < 0xFFFE)))
                         || d[i] == 9 || d[i] == 10 || d[i] == 13)) i++;
    } else {
        const Py_UCS4 *d = data;
        while (i < n && !illegal(d[i])) i++;
    }
    if (i == n) { Py_INCREF(s); return s; }
    Py_UCS4 *out = PyMem_Malloc(sizeof(Py_UCS4) * (n ? n : 1));
    if (!out) return PyErr_NoMemory();
    Py_ssize_t m = 0;
    for (Py_ssize_t j = 0; j < n; j++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, j);
        if (!illegal(c)) out[m++] = c;
        else if (c == 0x0B || c == 0x0C) out[m++] = ' ';
    }
    PyObject *r = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out, m);
    PyMem_Free(out);
    return r;
}

static PyMethodDef methods[] = {
    {"xml_clean", xml_clean, METH_O, "The text without characters XML does not allow."},
    {"make_tables", make_tables, METH_VARARGS, "Tables from the DTD (a capsule)."},
    {"prepare", prepare, METH_VARARGS, "Mark the subtrees under a node that subtree() writes."},
    {"subtree", subtree, METH_VARARGS, "Write a marked subtree: (xhtml, dropped attributes, comments) or None."},
    {"probe", probe, METH_VARARGS, "What is read of a node (layout check)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fastwrite", NULL, 0, methods};

PyMODINIT_FUNC PyInit__fastwrite(void) { return PyModule_Create(&module); }
