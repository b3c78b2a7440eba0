/* kitten._structure: the structure step's walk in C (optional; kitten/structure.py walks
 * the tree in Python for the same Document, and is used when this module is not built or
 * fails its check at import).
 *
 *   make_tables(names) -> capsule
 *       names: {local name: (flags, kind or None, skipped reason or None)} for every name
 *       the walk asks about (structure.py builds it from BLOCKS, KINDS, SKIPPED,
 *       CONTAINERS, GROUPS and the other sets, so that each set is written once).
 *   walk(tables, walker, body, hooks) -> None
 *       Appends the blocks of body (an lxml element) to walker.doc.blocks, exactly as
 *       structure._Walker.walk_python does, event for event: the same elements skipped,
 *       the same inline content, the same Block objects (kind, tag, source, inlines,
 *       group). Everything that is rare or needs a regular expression is asked of the
 *       walker (hooks: a tuple of its bound methods and values, see structure.py): an
 *       element's display, whether it is hidden, a named container (menu, consent
 *       banner), a removal to record, a <q>'s marks, an abbreviation's expansion.
 *       The JSON-LD scripts of the elements left out (every script is) are appended to
 *       walker.json_ld, in document order.
 *   block_contexts(marks, td_tags, div_tags, empty, sources, body) -> list
 *       The boilerplate gate's context of each source element (an lxml element, or None:
 *       empty), each element's computed once from its parent's, as _python_contexts of
 *       kitten/boilerplate/features.py (its Python fallback) does step for step: the
 *       parent found as getparent finds it, the element proxies made with elementFactory,
 *       the tag, class and id read from the libxml2 node as .tag and .get read them
 *       (the proxy's cached tag or namespacedName, attributeValueFromNsName), and given
 *       to marks (features._marks, a pure function: asked once a call for the elements
 *       of a name without class and id); td_tags and div_tags are the frozensets _TD and
 *       _DIVS, empty the context _NO_CONTEXT of an element outside body (and of body).
 *
 * The tree is read through libxml2's node structures (lxml's headers) and lxml's public
 * C API (elementFactory for the element proxies, textOf/tailOf for an element's text
 * and tail as lxml gives them): the module is built against the lxml it runs with.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>
#include <libxml/tree.h>
#include "lxml.etree_api.h"

static const char XHTML_NS[] = "http://www.w3.org/1999/xhtml";

/* ---- the name table ------------------------------------------------------------- */
enum {
    F_BLOCK = 1, F_CONTAINER = 2, F_GROUP = 4, F_BANNER = 8, F_ANNOTATION = 16,
    F_UNLOGGED = 32 /* skipped for a reason the walker does not record (script, style ...) */
};
#define SLOTS 1024 /* a power of two, well over the number of names */

typedef struct {
    char *name;         /* NULL: empty slot */
    int flags;
    PyObject *str;      /* the name as a Python str */
    PyObject *kind;     /* KINDS.get(name, "block") */
    PyObject *skipped;  /* SKIPPED.get(name) or NULL */
} entry;

typedef struct {
    entry slots[SLOTS];
    PyObject *block_kind; /* "block" */
} tables;

static unsigned hash(const char *s) {
    unsigned h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static const entry *lookup(const tables *t, const char *name) {
    for (unsigned i = hash(name) & (SLOTS - 1);; i = (i + 1) & (SLOTS - 1)) {
        const entry *e = &t->slots[i];
        if (e->name == NULL) return NULL;
        if (strcmp(e->name, name) == 0) return e;
    }
}

static void free_tables(PyObject *capsule) {
    tables *t = PyCapsule_GetPointer(capsule, "kitten.structure.tables");
    if (!t) return;
    for (int i = 0; i < SLOTS; i++) {
        entry *e = &t->slots[i];
        if (e->name) {
            PyMem_Free(e->name);
            Py_XDECREF(e->str); Py_XDECREF(e->kind); Py_XDECREF(e->skipped);
        }
    }
    Py_XDECREF(t->block_kind);
    PyMem_Free(t);
}

static PyObject *make_tables(PyObject *self, PyObject *names) {
    if (!PyDict_Check(names) || PyDict_GET_SIZE(names) >= SLOTS / 2) {
        PyErr_SetString(PyExc_ValueError, "make_tables: a dict of fewer than 512 names expected");
        return NULL;
    }
    tables *t = PyMem_Calloc(1, sizeof(tables));
    if (!t) return PyErr_NoMemory();
    PyObject *capsule = PyCapsule_New(t, "kitten.structure.tables", free_tables);
    if (!capsule) { PyMem_Free(t); return NULL; }
    t->block_kind = PyUnicode_InternFromString("block");
    if (!t->block_kind) goto fail;
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(names, &pos, &key, &value)) {
        int flags;
        PyObject *kind, *skipped;
        if (!PyUnicode_Check(key) || !PyArg_ParseTuple(value, "iOO", &flags, &kind, &skipped)) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "make_tables: bad entry");
            goto fail;
        }
        const char *name = PyUnicode_AsUTF8(key);
        if (!name) goto fail;
        unsigned i = hash(name) & (SLOTS - 1);
        while (t->slots[i].name) i = (i + 1) & (SLOTS - 1);
        entry *e = &t->slots[i];
        size_t n = strlen(name);
        e->name = PyMem_Malloc(n + 1);
        if (!e->name) { PyErr_NoMemory(); goto fail; }
        memcpy(e->name, name, n + 1);
        e->flags = flags;
        Py_INCREF(key); e->str = key;
        if (kind == Py_None) kind = t->block_kind;
        Py_INCREF(kind); e->kind = kind;
        if (skipped != Py_None) { Py_INCREF(skipped); e->skipped = skipped; }
    }
    return capsule;
fail:
    Py_DECREF(capsule);
    return NULL;
}

/* ---- the walk ----------------------------------------------------------------------- */
enum { L_OTHER, L_BR, L_Q, L_IMG, L_ABBR, L_BUTTON };

typedef struct {
    xmlNode *node;
    int is_block, skipped, local; /* local: L_* */
    PyObject *kind;  /* borrowed (tables), block contexts only */
    PyObject *orig;  /* new reference, block contexts only */
    Py_ssize_t group; /* index in the group stack of the innermost list or table */
} context;

typedef struct {
    xmlNode *node;
    PyObject *proxy; /* made when a block first needs it */
} group_entry;

typedef struct {
    const tables *t;
    struct LxmlDocument *doc;
    PyObject *blocks;     /* walker.doc.blocks */
    /* hooks */
    PyObject *display, *hidden, *container, *remove, *quoted, *abbreviation;
    PyObject *block_type, *alt_type, *br, *ignorable_search, *ignorable_sub, *empty;
    PyObject *open_quote, *close_quote;
    PyObject *space; /* " ": around a button's label (a box of its own on screen) */
    int img_alt, expand, named; /* named: a menu pattern or consent rules are configured */
    PyObject *hidden_classes;   /* tuple of str: literal substrings */
    const char **hidden_utf8; Py_ssize_t n_hidden; /* their UTF-8 strings */
    const char **literals_utf8; Py_ssize_t n_literals; /* those of name_literals */
    int always_named; /* name_literals is None (or has a string without UTF-8): always ask */
    PyObject *json_ld;  /* walker.json_ld: the JSON-LD scripts of the elements left out */
    /* IGNORABLE's characters as ranges (first[i] .. last[i]), when known (n_ignorable >= 0;
     * else its search is asked); below the least of them, none */
    Py_UCS4 *ignorable_first, *ignorable_last, ignorable_least; Py_ssize_t n_ignorable;
    PyObject *name_literals;    /* tuple of str (a container's names contain one when the
                                   walker's hints may match) or None: always ask */
    /* state */
    context *ctx; Py_ssize_t n_ctx, cap_ctx;
    group_entry *groups; Py_ssize_t n_groups, cap_groups;
    char *qmarks; Py_ssize_t n_q, cap_q;
    PyObject *block;      /* the block receiving inline content (new reference) or NULL */
    PyObject *inlines;    /* its list (borrowed from the block) */
} state;

static PyObject *proxy(state *s, xmlNode *node) {
    return (PyObject *)elementFactory(s->doc, node);
}

/* str.isspace() of a non-empty str */
static int is_space(PyObject *u) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(u);
    int kind = PyUnicode_KIND(u);
    const void *data = PyUnicode_DATA(u);
    if (n == 0) return 0;
    for (Py_ssize_t i = 0; i < n; i++)
        if (!Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i))) return 0;
    return 1;
}

static PyObject *group_proxy(state *s, Py_ssize_t i) {
    if (i < 0) Py_RETURN_NONE;
    group_entry *g = &s->groups[i];
    if (!g->proxy) {
        g->proxy = proxy(s, g->node);
        if (!g->proxy) return NULL;
    }
    Py_INCREF(g->proxy);
    return g->proxy;
}

/* Whether a str has one of IGNORABLE's characters (-1 on error). */
static int has_ignorable(state *s, PyObject *u) {
    if (s->n_ignorable < 0) {
        PyObject *m = PyObject_CallOneArg(s->ignorable_search, u);
        if (!m) return -1;
        int found = m != Py_None;
        Py_DECREF(m);
        return found;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(u);
    int kind = PyUnicode_KIND(u);
    const void *data = PyUnicode_DATA(u);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c < s->ignorable_least) continue;
        for (Py_ssize_t j = 0; j < s->n_ignorable; j++)
            if (c >= s->ignorable_first[j] && c <= s->ignorable_last[j]) return 1;
    }
    return 0;
}

/* s->ignorable_*: the ranges of a tuple of (first, last) pairs, or none known (None). -1 on error. */
static int ignorable_ranges(state *s, PyObject *ranges) {
    s->n_ignorable = -1;
    if (ranges == Py_None) return 0;
    if (!PyTuple_Check(ranges)) { PyErr_SetString(PyExc_TypeError, "walk: ranges must be a tuple or None"); return -1; }
    Py_ssize_t n = PyTuple_GET_SIZE(ranges);
    s->ignorable_first = PyMem_Malloc((n ? n : 1) * sizeof(Py_UCS4));
    s->ignorable_last = PyMem_Malloc((n ? n : 1) * sizeof(Py_UCS4));
    if (!s->ignorable_first || !s->ignorable_last) { PyErr_NoMemory(); return -1; }
    s->ignorable_least = 0x110000;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned int first, last;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(ranges, i), "II", &first, &last)) return -1;
        s->ignorable_first[i] = first;
        s->ignorable_last[i] = last;
        if (first < s->ignorable_least) s->ignorable_least = first;
    }
    s->n_ignorable = n;
    return 0;
}

/* structure.py's add(): item is a str (steals nothing) or BR. -1 on error. */
static int add(state *s, PyObject *item) {
    int br = item == s->br;
    if (s->block == NULL) {
        if (!br && is_space(item)) return 0;
        Py_ssize_t i = s->n_ctx - 1;
        while (i >= 0 && !s->ctx[i].is_block) i--;
        if (i < 0) return 0;
        context *c = &s->ctx[i];
        PyObject *source = proxy(s, c->node);
        if (!source) return -1;
        PyObject *group = group_proxy(s, c->group);
        if (!group) { Py_DECREF(source); return -1; }
        PyObject *inlines = PyList_New(0);
        if (!inlines) { Py_DECREF(source); Py_DECREF(group); return -1; }
        s->block = PyObject_CallFunctionObjArgs(s->block_type, c->kind, c->orig, source, inlines, group, NULL);
        Py_DECREF(source); Py_DECREF(group); Py_DECREF(inlines);
        if (!s->block) return -1;
        s->inlines = inlines; /* the block holds it */
    }
    if (!br && !PyUnicode_IS_ASCII(item)) {
        int found = has_ignorable(s, item);
        if (found < 0) return -1;
        if (found) {
            PyObject *clean = PyObject_CallFunctionObjArgs(s->ignorable_sub, s->empty, item, NULL);
            if (!clean) return -1;
            int r = PyList_Append(s->inlines, clean);
            Py_DECREF(clean);
            return r;
        }
    }
    return PyList_Append(s->inlines, item);
}

/* structure.py's flush(). */
static int flush(state *s) {
    PyObject *block = s->block;
    if (!block) return 0;
    s->block = NULL;
    int r = 0;
    Py_ssize_t n = PyList_GET_SIZE(s->inlines);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyList_GET_ITEM(s->inlines, i);
        if (x != s->br && !is_space(x)) { r = PyList_Append(s->blocks, block); break; }
    }
    Py_DECREF(block);
    return r;
}

/* A text (element's text or tail): new reference or NULL (an error when set). */
static int add_text(state *s, PyObject *text) {
    if (!text) return PyErr_Occurred() ? -1 : 0;
    int r = 0;
    if (text != Py_None && PyUnicode_GET_LENGTH(text) > 0) {
        if (s->block == NULL) {
            if (!is_space(text)) r = add(s, text);
        } else if (PyUnicode_IS_ASCII(text)) {
            r = PyList_Append(s->inlines, text);
        } else {
            r = add(s, text);
        }
    }
    Py_DECREF(text);
    return r;
}

/* An attribute without namespace as lxml's get(): its value as UTF-8 ("" when empty),
 * NULL when absent. Values that are not one text node (entity references) are read
 * through lxml, kept alive in *keep. */
static const char *attribute(xmlNode *node, const char *name, PyObject **keep) {
    for (xmlAttr *a = node->properties; a; a = a->next) {
        if (a->ns != NULL || strcmp((const char *)a->name, name) != 0) continue;
        xmlNode *c = a->children;
        if (c == NULL) return "";
        if (c->next == NULL && c->type == XML_TEXT_NODE && c->content) return (const char *)c->content;
        PyObject *v = attributeValue(node, a);
        if (!v) { PyErr_Clear(); return ""; }
        Py_XSETREF(*keep, v);
        const char *u = PyUnicode_AsUTF8(v);
        if (!u) { PyErr_Clear(); return ""; }
        return u;
    }
    return NULL;
}

static PyObject *str_or_none(const char *v) {
    if (v == NULL) Py_RETURN_NONE;
    return PyUnicode_FromString(v);
}

static int push_ctx(state *s, context c) {
    if (s->n_ctx == s->cap_ctx) {
        Py_ssize_t cap = s->cap_ctx ? 2 * s->cap_ctx : 64;
        context *m = PyMem_Realloc(s->ctx, cap * sizeof(context));
        if (!m) { PyErr_NoMemory(); return -1; }
        s->ctx = m; s->cap_ctx = cap;
    }
    s->ctx[s->n_ctx++] = c;
    return 0;
}

static int push_group(state *s, xmlNode *node) {
    if (s->n_groups == s->cap_groups) {
        Py_ssize_t cap = s->cap_groups ? 2 * s->cap_groups : 16;
        group_entry *m = PyMem_Realloc(s->groups, cap * sizeof(group_entry));
        if (!m) { PyErr_NoMemory(); return -1; }
        s->groups = m; s->cap_groups = cap;
    }
    s->groups[s->n_groups].node = node;
    s->groups[s->n_groups].proxy = NULL;
    s->n_groups++;
    return 0;
}

static int push_q(state *s, char mark) {
    if (s->n_q == s->cap_q) {
        Py_ssize_t cap = s->cap_q ? 2 * s->cap_q : 16;
        char *m = PyMem_Realloc(s->qmarks, cap);
        if (!m) { PyErr_NoMemory(); return -1; }
        s->qmarks = m; s->cap_q = cap;
    }
    s->qmarks[s->n_q++] = mark;
    return 0;
}

/* The element's original name: the first class token "kitten-<name>" (structure._original),
 * or NULL (then the local name). Class values with non-ASCII bytes are split by Python. */
static PyObject *original_name(const char *cls, PyObject *local_str, PyObject *original_fn) {
    for (const unsigned char *p = (const unsigned char *)cls; *p; p++)
        if (*p >= 0x80 || *p == 0x1c || *p == 0x1d || *p == 0x1e || *p == 0x1f) {
            PyObject *c = PyUnicode_FromString(cls);
            if (!c) return NULL;
            PyObject *r = PyObject_CallFunctionObjArgs(original_fn, c, local_str, NULL);
            Py_DECREF(c);
            return r;
        }
    const char *p = cls;
    while (*p) {
        while (*p && strchr(" \t\n\r\x0b\x0c", *p)) p++;
        const char *start = p;
        while (*p && !strchr(" \t\n\r\x0b\x0c", *p)) p++;
        if (p - start >= 7 && strncmp(start, "kitten-", 7) == 0)
            return PyUnicode_FromStringAndSize(start + 7, p - start - 7);
    }
    Py_INCREF(local_str);
    return local_str;
}

/* 0 when a container's id and class certainly name no menu nor consent banner: no
 * ASCII-lower-cased name contains any of the walker's name_literals. */
static int may_be_named(state *s, const char *id, const char *cls) {
    if (s->always_named) return 1;
    size_t a = id ? strlen(id) : 0, b = cls ? strlen(cls) : 0;
    char small[512], *joined = a + b + 2 <= sizeof small ? small : PyMem_Malloc(a + b + 2);
    if (!joined) return 1;
    int r = 0, ascii = 1;
    memcpy(joined, id ? id : "", a);
    joined[a] = ' ';
    memcpy(joined + a + 1, cls ? cls : "", b);
    joined[a + b + 1] = 0;
    for (char *p = joined; *p; p++) {
        if ((unsigned char)*p >= 0x80) { ascii = 0; break; }
        if (*p >= 'A' && *p <= 'Z') *p += 32;
    }
    if (!ascii) r = 1; /* Python lower-cases non-ASCII letters: ask it */
    for (Py_ssize_t i = 0; !r && i < s->n_literals; i++)
        if (strstr(joined, s->literals_utf8[i])) r = 1;
    if (joined != small) PyMem_Free(joined);
    return r;
}

static int has_hidden_class(state *s, const char *cls) {
    for (Py_ssize_t i = 0; i < s->n_hidden; i++)
        if (*s->hidden_utf8[i] && strstr(cls, s->hidden_utf8[i])) return 1;
    return 0;
}

/* The UTF-8 strings of a tuple of str in *out, *n of them (kept alive by the tuple; those
 * that have none, lone surrogates, left out). -1 on error, else how many were left out. */
static Py_ssize_t utf8_strings(PyObject *tuple, const char ***out, Py_ssize_t *n) {
    Py_ssize_t size = PyTuple_GET_SIZE(tuple), left_out = 0;
    *out = PyMem_Malloc((size ? size : 1) * sizeof(char *));
    if (!*out) { PyErr_NoMemory(); return -1; }
    for (Py_ssize_t i = 0; i < size; i++) {
        const char *u = PyUnicode_AsUTF8(PyTuple_GET_ITEM(tuple, i));
        if (u) (*out)[(*n)++] = u;
        else { PyErr_Clear(); left_out++; }
    }
    return left_out;
}

/* The local name as structure.py reads it: the name of an XHTML element or of one
 * without namespace (*plain = 1), "{ns}name" of another namespace. New reference. */
static PyObject *local_name(xmlNode *node, const entry **e, const tables *t, int *plain) {
    const char *name = (const char *)node->name;
    *plain = node->ns == NULL || (node->ns->href && strcmp((const char *)node->ns->href, XHTML_NS) == 0);
    if (*plain) {
        *e = lookup(t, name);
        if (*e) { Py_INCREF((*e)->str); return (*e)->str; }
        return PyUnicode_FromString(name);
    }
    *e = NULL;
    return PyUnicode_FromFormat("{%s}%s", node->ns->href ? (const char *)node->ns->href : "", name);
}

/* An image's alt text as an inline (" alt ", an AltText), when it has one. -1 on error. */
static int add_alt(state *s, xmlNode *node) {
    PyObject *keep = NULL;
    const char *alt = attribute(node, "alt", &keep);
    int r = 0;
    if (alt && *alt) {
        PyObject *a = PyUnicode_FromString(alt);
        PyObject *stripped = a ? PyObject_CallMethod(a, "strip", NULL) : NULL;
        r = stripped ? 0 : -1;
        if (stripped && PyUnicode_GET_LENGTH(stripped) > 0) {
            PyObject *spaced = PyUnicode_FromFormat(" %U ", stripped);
            PyObject *item = spaced ? PyObject_CallOneArg(s->alt_type, spaced) : NULL;
            r = item ? add(s, item) : -1;
            Py_XDECREF(item); Py_XDECREF(spaced);
        }
        Py_XDECREF(stripped); Py_XDECREF(a);
    }
    Py_XDECREF(keep);
    return r;
}

/* Asks hook(element, original name, a, b) (a, b: attribute values, None when absent) why
 * the element is left out: *reason is set when it answers a reason, kept NULL for None.
 * *el: the element's proxy, made if not yet. -1 on error. */
static int ask(state *s, PyObject *hook, xmlNode *node, PyObject **el, PyObject *orig, const char *a,
               const char *b, PyObject **reason) {
    if (!*el) *el = proxy(s, node);
    PyObject *x = *el ? str_or_none(a) : NULL, *y = x ? str_or_none(b) : NULL;
    PyObject *r = y ? PyObject_CallFunctionObjArgs(hook, *el, orig, x, y, NULL) : NULL;
    Py_XDECREF(x); Py_XDECREF(y);
    if (!r) return -1;
    if (r == Py_None) Py_DECREF(r);
    else *reason = r;
    return 0;
}

static int is_xhtml(const xmlNode *n, const char *name);
static xmlNode *next_node(xmlNode *c, const xmlNode *top, int enter);

/* Appends the JSON-LD scripts of an element left out, itself included, to s->json_ld
 * (metadata.json_ld_scripts). -1 on error. */
static int add_json_ld(state *s, xmlNode *top) {
    for (xmlNode *c = top; c; c = c == top ? top->children : next_node(c, top, 1)) {
        if (!is_xhtml(c, "script")) continue;
        PyObject *keep = NULL;
        const char *type = attribute(c, "type", &keep);
        int r = 0;
        if (type && strstr(type, "ld+json")) {
            PyObject *el = proxy(s, c);
            r = el ? PyList_Append(s->json_ld, el) : -1;
            Py_XDECREF(el);
        }
        Py_XDECREF(keep);
        if (r < 0) return -1;
        if (c == top) break; /* a script holds no element */
    }
    return 0;
}

/* The start of an element: 1 to walk its children, 0 to skip them, -1 on error. */
static int start(state *s, xmlNode *node, PyObject *original_fn) {
    Py_ssize_t group = s->n_groups - 1;
    const tables *t = s->t;
    const entry *le = NULL, *oe;
    int plain;
    PyObject *local = local_name(node, &le, t, &plain);
    if (!local) return -1;
    PyObject *keep = NULL, *orig = NULL, *reason = NULL, *display = NULL, *el = NULL;
    int result = -1;
    const char *cls = attribute(node, "class", &keep);
    if (cls && strstr(cls, "kitten-")) {
        orig = original_name(cls, local, original_fn);
        if (!orig) goto done;
        oe = PyUnicode_Compare(orig, local) == 0 ? le : lookup(t, PyUnicode_AsUTF8(orig));
    } else {
        Py_INCREF(local); orig = local; oe = le;
    }
    PyObject *keep_style = NULL;
    const char *style = attribute(node, "style", &keep_style);
    int oflags = oe ? oe->flags : 0, lflags = le ? le->flags : 0;
    if (style && strstr(style, "display")) {
        PyObject *st = PyUnicode_FromString(style);
        if (!st) { Py_XDECREF(keep_style); goto done; }
        display = PyObject_CallOneArg(s->display, st);
        Py_DECREF(st);
        if (!display) { Py_XDECREF(keep_style); goto done; }
        if (display == Py_None) Py_CLEAR(display);
    }
    int unlogged = 0;
    if (le && le->skipped) { reason = le->skipped; Py_INCREF(reason); unlogged = lflags & F_UNLOGGED; }
    else if (oe && oe != le && oe->skipped) { reason = oe->skipped; Py_INCREF(reason); unlogged = oflags & F_UNLOGGED; }
    if (!reason) {
        if ((display && PyUnicode_CompareWithASCIIString(display, "none") == 0) ||
                (style && strstr(style, "isibility")) || (oflags & F_ANNOTATION) ||
                (cls && (strstr(cls, "kitten.aria-hidden") || has_hidden_class(s, cls)))) {
            if (ask(s, s->hidden, node, &el, orig, cls, style, &reason) < 0) { Py_XDECREF(keep_style); goto done; }
        }
    }
    Py_XDECREF(keep_style);
    if (!reason && s->named && ((oflags & (F_CONTAINER | F_BANNER)) || (lflags & F_CONTAINER))) {
        PyObject *keep_id = NULL;
        const char *id = attribute(node, "id", &keep_id);
        if (((cls && *cls) || (id && *id)) && may_be_named(s, id, cls)) {
            if (ask(s, s->container, node, &el, orig, id, cls, &reason) < 0) { Py_XDECREF(keep_id); goto done; }
        }
        Py_XDECREF(keep_id);
    }
    if (reason) {
        if (add_json_ld(s, node) < 0) goto done;
        if (!unlogged) {
            if (!el) el = proxy(s, node);
            if (!el) goto done;
            PyObject *r = PyObject_CallFunctionObjArgs(s->remove, el, reason, NULL);
            if (!r) goto done;
            Py_DECREF(r);
        }
        context c = {node, 0, 1, L_OTHER, NULL, NULL, group};
        result = push_ctx(s, c) < 0 ? -1 : 0;
        goto done;
    }
    int is_block;
    if (!display) {
        is_block = (oflags & F_BLOCK) != 0;
    } else {
        const char *d = PyUnicode_AsUTF8(display);
        if (!d) goto done;
        is_block = !(strncmp(d, "inline", 6) == 0 || strcmp(d, "contents") == 0);
    }
    if (is_block) {
        if (s->block && flush(s) < 0) goto done;
        if (oflags & F_GROUP) {
            if (push_group(s, node) < 0) goto done;
            group = s->n_groups - 1;
        }
        context c = {node, 1, 0, L_OTHER, oe ? oe->kind : t->block_kind, orig, group};
        if (push_ctx(s, c) < 0) goto done;
        orig = NULL; /* the context holds it */
    } else {
        const char *name = (const char *)node->name;
        int which = L_OTHER;
        if (plain) {
            if (strcmp(name, "br") == 0) which = L_BR;
            else if (strcmp(name, "q") == 0) which = L_Q;
            else if (strcmp(name, "img") == 0) which = L_IMG;
            else if (strcmp(name, "abbr") == 0 || strcmp(name, "acronym") == 0) which = L_ABBR;
            else if (strcmp(name, "button") == 0) which = L_BUTTON;
        }
        context c = {node, 0, 0, which, NULL, NULL, group};
        if (push_ctx(s, c) < 0) goto done;
        if (which == L_BR) {
            if (add(s, s->br) < 0) goto done;
        } else if (which == L_Q) {
            if (!el) el = proxy(s, node);
            PyObject *q = el ? PyObject_CallOneArg(s->quoted, el) : NULL;
            if (!q) goto done;
            int quoted = PyObject_IsTrue(q);
            Py_DECREF(q);
            if (quoted < 0 || push_q(s, !quoted) < 0) goto done;
            if (!quoted && add(s, s->open_quote) < 0) goto done;
        } else if (which == L_IMG && s->img_alt) {
            if (add_alt(s, node) < 0) goto done;
        } else if (which == L_BUTTON) {
            if (add(s, s->space) < 0) goto done;
        }
    }
    if (add_text(s, textOf(node)) < 0) goto done;
    result = 1;
done:
    Py_XDECREF(local); Py_XDECREF(keep); Py_XDECREF(orig); Py_XDECREF(reason);
    Py_XDECREF(display); Py_XDECREF(el);
    return result;
}

/* The end of a node. -1 on error. */
static int end(state *s, xmlNode *node) {
    context c = s->ctx[--s->n_ctx];
    int r = 0;
    if (!c.skipped) {
        if (c.is_block) {
            if (s->block) r = flush(s);
            if (s->n_groups && s->groups[s->n_groups - 1].node == node) {
                Py_XDECREF(s->groups[s->n_groups - 1].proxy);
                s->n_groups--;
            }
        } else if (c.local == L_Q) {
            if (s->qmarks[--s->n_q]) r = add(s, s->close_quote);
        } else if (c.local == L_BUTTON) {
            r = add(s, s->space);
        } else if (c.local == L_ABBR && s->expand) {
            PyObject *el = proxy(s, node), *text = NULL;
            if (el) {
                PyObject *local = PyUnicode_FromString((const char *)node->name);
                if (local) text = PyObject_CallFunctionObjArgs(s->abbreviation, local, el, NULL);
                Py_XDECREF(local);
                Py_DECREF(el);
            }
            if (!text) r = -1;
            else {
                if (text != Py_None) r = add(s, text);
                Py_DECREF(text);
            }
        }
    }
    Py_XDECREF(c.orig);
    if (r < 0) return -1;
    return add_text(s, tailOf(node));
}

/* Nodes lxml's iterwalk reports: elements only (comments and processing instructions,
 * and so their tails, are not seen; the normalizer writes none). */
static xmlNode *next_reported(xmlNode *n) {
    for (; n; n = n->next)
        if (n->type == XML_ELEMENT_NODE) return n;
    return NULL;
}

static void clear_state(state *s) {
    for (Py_ssize_t i = 0; i < s->n_ctx; i++) Py_XDECREF(s->ctx[i].orig);
    for (Py_ssize_t i = 0; i < s->n_groups; i++) Py_XDECREF(s->groups[i].proxy);
    PyMem_Free(s->ctx); PyMem_Free(s->groups); PyMem_Free(s->qmarks); PyMem_Free((void *)s->hidden_utf8);
    PyMem_Free((void *)s->literals_utf8);
    PyMem_Free(s->ignorable_first); PyMem_Free(s->ignorable_last);
    Py_XDECREF(s->block);
    Py_XDECREF(s->blocks);
    Py_XDECREF(s->empty);
    Py_XDECREF(s->space);
}

static PyObject *walk(PyObject *self, PyObject *args) {
    PyObject *capsule, *body, *hooks, *original_fn;
    state s;
    memset(&s, 0, sizeof s);
    if (!PyArg_ParseTuple(args, "OOOO!", &capsule, &original_fn, &body, &PyTuple_Type, &hooks)) return NULL;
    s.t = PyCapsule_GetPointer(capsule, "kitten.structure.tables");
    if (!s.t) return NULL;
    PyObject *ranges;
    if (!PyArg_ParseTuple(hooks, "OOOOOOOOOOOOOOpppO!OO!O", &s.blocks, &s.display, &s.hidden, &s.container,
                          &s.remove, &s.quoted, &s.abbreviation, &s.block_type, &s.alt_type, &s.br,
                          &s.ignorable_search, &s.ignorable_sub, &s.open_quote, &s.close_quote,
                          &s.img_alt, &s.expand, &s.named, &PyTuple_Type, &s.hidden_classes, &s.name_literals,
                          &PyList_Type, &s.json_ld, &ranges))
        return NULL;
    if (s.name_literals != Py_None && !PyTuple_Check(s.name_literals)) {
        PyErr_SetString(PyExc_TypeError, "walk: name_literals must be a tuple or None");
        return NULL;
    }
    if (!PyList_Check(s.blocks)) { PyErr_SetString(PyExc_TypeError, "walk: blocks must be a list"); return NULL; }
    struct LxmlElement *root = rootNodeOrRaise(body);
    if (!root) return NULL;
    s.doc = root->_doc;
    xmlNode *top = root->_c_node;
    Py_DECREF(root);
    Py_INCREF(s.blocks);
    s.empty = PyUnicode_New(0, 0);
    s.space = PyUnicode_FromString(" ");
    int ok = 0;
    s.always_named = s.name_literals == Py_None;
    Py_ssize_t left_out = s.always_named ? 0 : utf8_strings(s.name_literals, &s.literals_utf8, &s.n_literals);
    if (left_out > 0) s.always_named = 1;
    if (!s.empty || !s.space || left_out < 0 || utf8_strings(s.hidden_classes, &s.hidden_utf8, &s.n_hidden) < 0 ||
        ignorable_ranges(&s, ranges) < 0) {
        clear_state(&s);
        return NULL;
    }
    xmlNode *n = top;
    int descend = start(&s, n, original_fn);
    while (descend >= 0) {
        xmlNode *child = descend ? next_reported(n->children) : NULL;
        if (child) {
            n = child;
            descend = start(&s, n, original_fn);
            continue;
        }
        for (;;) { /* end n, then its next sibling or its parent's end */
            if (end(&s, n) < 0) { descend = -1; break; }
            if (n == top) { ok = 1; break; }
            xmlNode *next = next_reported(n->next);
            if (next) { n = next; descend = start(&s, n, original_fn); break; }
            n = n->parent;
        }
        if (ok) break;
    }
    if (ok && flush(&s) < 0) ok = 0;
    clear_state(&s);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* The code point at *p (UTF-8, not at its end), *p moved past it; 0 for a byte that
 * starts none (libxml2 stores none), skipped. */
static int next_char(const unsigned char **p, Py_UCS4 *u) {
    const unsigned char *q = *p;
    Py_UCS4 c = *q;
    if (c < 0x80) { *u = c; *p = q + 1; return 1; }
    if (c >= 0xF0 && q[1] && q[2] && q[3]) {
        *u = ((c & 0x07) << 18) | ((q[1] & 0x3F) << 12) | ((q[2] & 0x3F) << 6) | (q[3] & 0x3F); *p = q + 4;
    } else if (c >= 0xE0 && q[1] && q[2]) {
        *u = ((c & 0x0F) << 12) | ((q[1] & 0x3F) << 6) | (q[2] & 0x3F); *p = q + 3;
    } else if (c >= 0xC0 && q[1]) {
        *u = ((c & 0x1F) << 6) | (q[1] & 0x3F); *p = q + 2;
    } else { *p = q + 1; return 0; }
    return 1;
}

/* Code points of UTF-8 text that are not white space (Python's str.isspace). */
static Py_ssize_t non_space(const unsigned char *p) {
    Py_ssize_t n = 0;
    Py_UCS4 u;
    while (*p) {
        if (*p < 0x80) { n += !Py_UNICODE_ISSPACE(*p); p++; continue; }
        if (next_char(&p, &u)) n += !Py_UNICODE_ISSPACE(u);
    }
    return n;
}

static int is_text(const xmlNode *n) {
    return n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE;
}

static int is_xhtml(const xmlNode *n, const char *name) {
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0 && n->ns && n->ns->href &&
           strcmp((const char *)n->ns->href, XHTML_NS) == 0;
}

static int unseen(const xmlNode *n) {
    return is_xhtml(n, "script") || is_xhtml(n, "style");
}

/* The node after c in document order among top's descendants (c's children first when
 * enter), NULL after the last. */
static xmlNode *next_node(xmlNode *c, const xmlNode *top, int enter) {
    if (enter && c->type == XML_ELEMENT_NODE && c->children) return c->children;
    while (c != top && c->next == NULL) c = c->parent;
    return c == top ? NULL : c->next;
}

/* The element of an lxml proxy (NULL with an exception set). */
static xmlNode *node_of(PyObject *arg) {
    struct LxmlElement *el = rootNodeOrRaise(arg);
    if (!el) return NULL;
    xmlNode *node = el->_c_node;
    Py_DECREF(el);
    return node;
}

/* Non-space code points of the text nodes under top (all of them as lxml's itertext(),
 * or, visible_only, those outside script and style); counted up to limit (when >= 0). */
static Py_ssize_t letters(xmlNode *top, int visible_only, Py_ssize_t limit) {
    Py_ssize_t n = 0;
    if (visible_only && unseen(top)) return 0;
    for (xmlNode *c = top->children; c && (limit < 0 || n < limit); c = next_node(c, top, !visible_only || !unseen(c)))
        if (is_text(c) && c->content) n += non_space(c->content);
    return limit >= 0 && n > limit ? limit : n;
}

/* structure._letters(element, limit=-1): the characters a reader sees in an element (its
 * text nodes outside script and style, white space left out), or limit when there are
 * more (when limit >= 0; the count stops there). */
static PyObject *visible_letters(PyObject *self, PyObject *args) {
    PyObject *arg;
    Py_ssize_t limit = -1;
    if (!PyArg_ParseTuple(args, "O|n", &arg, &limit)) return NULL;
    xmlNode *top = node_of(arg);
    return top ? PyLong_FromSsize_t(letters(top, 1, limit)) : NULL;
}

/* len(text.strip()) of the text lxml reads from the run of text nodes starting at n. */
static Py_ssize_t stripped_run(const xmlNode *n) {
    Py_ssize_t at = 0, first = -1, last = -1;
    Py_UCS4 u;
    for (; n && is_text(n); n = n->next) {
        const unsigned char *p = n->content;
        while (p && *p) {
            if (!next_char(&p, &u)) continue;
            if (!Py_UNICODE_ISSPACE(u)) {
                if (first < 0) first = at;
                last = at;
            }
            at++;
        }
    }
    return first < 0 ? 0 : last - first + 1;
}

/* The element after c in document order among top's elements outside script and style
 * (c's subtree is entered), NULL after the last. */
static xmlNode *next_visible(xmlNode *c, xmlNode *top) {
    xmlNode *k = c->children;
    for (;;) {
        for (; k; k = k->next)
            if (k->type == XML_ELEMENT_NODE && !unseen(k)) return k;
        if (c == top) return NULL;
        k = c->next;
        c = c->parent;
    }
}

/* structure.navigation_measures: (the letters of the element's links: the sum over its
 * <a> elements, itself included, of their text's non-space characters; the longest
 * text outside script and style, stripped, as lxml reads an element's text and the tails
 * of its children: a run of text nodes). */
static PyObject *navigation_measures(PyObject *self, PyObject *arg) {
    xmlNode *top = node_of(arg);
    if (!top) return NULL;
    Py_ssize_t links = is_xhtml(top, "a") ? letters(top, 0, -1) : 0, longest = 0;
    for (xmlNode *c = top->children; c; c = next_node(c, top, 1))
        if (is_xhtml(c, "a")) links += letters(c, 0, -1);
    for (xmlNode *e = unseen(top) ? NULL : top; e; e = next_visible(e, top)) {
        if (e->children && is_text(e->children)) {
            Py_ssize_t n = stripped_run(e->children);
            if (n > longest) longest = n;
        }
        for (xmlNode *k = e->children; k; k = k->next) {
            if ((k->type == XML_ELEMENT_NODE || k->type == XML_COMMENT_NODE || k->type == XML_PI_NODE ||
                 k->type == XML_ENTITY_REF_NODE) && k->next && is_text(k->next)) {
                Py_ssize_t n = stripped_run(k->next);
                if (n > longest) longest = n;
            }
        }
    }
    return Py_BuildValue("(nn)", links, longest);
}

/* structure._text_start: the first `limit` characters of an element's text (every text
 * node of its subtree, as lxml's itertext() gives it: script and style text included,
 * comments' and processing instructions' text not), white space collapsed as
 * " ".join(text.split()); reads only as far as the limit. */
static PyObject *text_start(PyObject *self, PyObject *args) {
    PyObject *arg;
    Py_ssize_t limit;
    if (!PyArg_ParseTuple(args, "On", &arg, &limit)) return NULL;
    xmlNode *top = node_of(arg);
    if (!top) return NULL;
    if (limit <= 0) return PyUnicode_New(0, 0);
    Py_UCS4 small[128], *out = limit <= 128 ? small : PyMem_Malloc(limit * sizeof(Py_UCS4));
    if (!out) return PyErr_NoMemory();
    Py_ssize_t n = 0;
    int space = 0; /* white space seen after the last character written */
    Py_UCS4 u;
    for (xmlNode *c = top->children; c && n < limit; c = next_node(c, top, 1)) {
        const unsigned char *p = is_text(c) ? c->content : NULL;
        while (p && *p && n < limit) {
            if (!next_char(&p, &u)) continue;
            if (Py_UNICODE_ISSPACE(u)) { space = n > 0; continue; }
            if (space) {
                out[n++] = ' ';
                space = 0;
                if (n == limit) break;
            }
            out[n++] = u;
        }
    }
    PyObject *r = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out, n);
    if (out != small) PyMem_Free(out);
    return r;
}

/* document.Locators' steps of an element's children: [(child, step), ...] for each child
 * element, step its name (local for XHTML, "{ns}name" for another namespace) with "[n]"
 * when the parent has more than one element of its tag (namespace and name). */
static PyObject *child_steps(PyObject *self, PyObject *arg) {
    struct LxmlElement *el = rootNodeOrRaise(arg);
    if (!el) return NULL;
    xmlNode *parent = el->_c_node;
    PyObject *out = PyList_New(0), *tags = PyList_New(0), *totals = PyDict_New(), *seen = PyDict_New();
    if (!out || !tags || !totals || !seen) goto fail;
    for (xmlNode *c = parent->children; c; c = c->next) { /* each child's tag, counted */
        if (c->type != XML_ELEMENT_NODE) continue;
        int xhtml = c->ns && c->ns->href && strcmp((const char *)c->ns->href, XHTML_NS) == 0;
        PyObject *tag = xhtml || !c->ns ? PyUnicode_FromFormat("%s%s", xhtml ? "\x01" : "", (const char *)c->name)
                                        : PyUnicode_FromFormat("{%s}%s", c->ns->href ? (const char *)c->ns->href : "",
                                                               (const char *)c->name);
        if (!tag || PyList_Append(tags, tag) < 0) { Py_XDECREF(tag); goto fail; }
        PyObject *n = PyDict_GetItemWithError(totals, tag);
        if (!n && PyErr_Occurred()) { Py_DECREF(tag); goto fail; }
        PyObject *next = PyLong_FromSsize_t(n ? PyLong_AsSsize_t(n) + 1 : 1);
        int r = next ? PyDict_SetItem(totals, tag, next) : -1;
        Py_XDECREF(next); Py_DECREF(tag);
        if (r < 0) goto fail;
    }
    Py_ssize_t i = 0;
    for (xmlNode *c = parent->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE) continue;
        PyObject *tag = PyList_GET_ITEM(tags, i++);
        PyObject *name = PyUnicode_READ_CHAR(tag, 0) == 1 ? PyUnicode_Substring(tag, 1, PyUnicode_GET_LENGTH(tag))
                                                         : Py_NewRef(tag);
        if (!name) goto fail;
        PyObject *step = name;
        if (PyLong_AsSsize_t(PyDict_GetItem(totals, tag)) > 1) {
            PyObject *n = PyDict_GetItem(seen, tag);
            Py_ssize_t k = n ? PyLong_AsSsize_t(n) + 1 : 1;
            PyObject *kk = PyLong_FromSsize_t(k);
            int r = kk ? PyDict_SetItem(seen, tag, kk) : -1;
            Py_XDECREF(kk);
            step = r < 0 ? NULL : PyUnicode_FromFormat("%U[%zd]", name, k);
            Py_DECREF(name);
            if (!step) goto fail;
        }
        PyObject *child = (PyObject *)elementFactory(el->_doc, c);
        PyObject *pair = child ? PyTuple_Pack(2, child, step) : NULL;
        Py_XDECREF(child); Py_DECREF(step);
        if (!pair || PyList_Append(out, pair) < 0) { Py_XDECREF(pair); goto fail; }
        Py_DECREF(pair);
    }
    Py_DECREF(tags); Py_DECREF(totals); Py_DECREF(seen); Py_DECREF(el);
    return out;
fail:
    Py_XDECREF(out); Py_XDECREF(tags); Py_XDECREF(totals); Py_XDECREF(seen); Py_DECREF(el);
    return NULL;
}

/* ---- the gate's block contexts --------------------------------------------------- */

static PyTypeObject *element_type; /* lxml.etree._Element (comments and the like are of subtypes) */

/* t + (x,): a new reference */
static PyObject *tuple_plus(PyObject *t, PyObject *x) {
    Py_ssize_t n = PyTuple_GET_SIZE(t);
    PyObject *out = PyTuple_New(n + 1);
    if (!out) return NULL;
    for (Py_ssize_t k = 0; k < n; k++) PyTuple_SET_ITEM(out, k, Py_NewRef(PyTuple_GET_ITEM(t, k)));
    PyTuple_SET_ITEM(out, n, Py_NewRef(x));
    return out;
}

/* above + marks[:1] + tuple(m for m in marks[1:] if m not in above): the container
 * features of a chain (a vocabulary word counts once however many ancestors carry it;
 * marks[0], container.<tag>, each time); a new reference */
static PyObject *inherited_marks(PyObject *above, PyObject *marks) {
    Py_ssize_t na = PyTuple_GET_SIZE(above), nm = PyTuple_GET_SIZE(marks), n = 0;
    PyObject *out = PyTuple_New(na + nm);
    if (!out) return NULL;
    for (Py_ssize_t k = 0; k < na; k++) PyTuple_SET_ITEM(out, n++, Py_NewRef(PyTuple_GET_ITEM(above, k)));
    for (Py_ssize_t k = 0; k < nm; k++) {
        PyObject *m = PyTuple_GET_ITEM(marks, k);
        if (k > 0) {
            int in = PySequence_Contains(above, m);
            if (in < 0) { Py_DECREF(out); return NULL; }
            if (in) continue;
        }
        PyTuple_SET_ITEM(out, n++, Py_NewRef(m));
    }
    if (n < na + nm && _PyTuple_Resize(&out, n) < 0) return NULL;
    return out;
}

/* el.tag, el.get("class") and el.get("id") of an lxml element into out[0..2] (new
 * references; -1 with an exception set): of an element's libxml2 node with lxml's own
 * functions (its proxy's cached tag, else namespacedName; attributeValueFromNsName, what
 * get calls), of another node (a comment ...) through its Python API. */
static int tag_class_id(struct LxmlElement *el, PyObject **out) {
    xmlNode *node = el->_c_node;
    out[0] = out[1] = out[2] = NULL;
    if (node->type == XML_ELEMENT_NODE) {
        out[0] = el->_tag && el->_tag != Py_None ? Py_NewRef(el->_tag) : namespacedName(node);
        if (out[0]) out[1] = attributeValueFromNsName(node, NULL, (const xmlChar *)"class");
        if (out[1]) out[2] = attributeValueFromNsName(node, NULL, (const xmlChar *)"id");
    } else {
        PyObject *obj = (PyObject *)el;
        out[0] = PyObject_GetAttrString(obj, "tag");
        if (out[0]) out[1] = PyObject_CallMethod(obj, "get", "s", "class");
        if (out[1]) out[2] = PyObject_CallMethod(obj, "get", "s", "id");
    }
    if (out[2]) return 0;
    Py_CLEAR(out[0]); Py_CLEAR(out[1]);
    return -1;
}

#define BARE_SLOTS 256 /* a power of two, well over the names of a page's elements */

/* What block_contexts' helpers share: its arguments, the contexts made (by element),
 * and the marks of the elements without class and id by name (their marks depend on
 * their name only: marks is given the same tag, None, None), NULL name: an empty slot. */
typedef struct { const xmlChar *name, *href; PyObject *marks; } bare_entry;
typedef struct {
    PyObject *marks_fn, *td_tags, *div_tags, *empty, *body, *cache;
    bare_entry bare[BARE_SLOTS];
} contexts_state;

/* Has the element n neither class nor id as lxml's get reads them: no such attribute
 * without a namespace, and no DTD that could give one a default (xmlGetNsProp's)? */
static int bare(const xmlNode *n) {
    const xmlDoc *d = n->doc;
    if (d && d->intSubset && (d->intSubset->attributes || (d->extSubset && d->extSubset->attributes))) return 0;
    for (const xmlAttr *a = n->properties; a; a = a->next)
        if (!a->ns && (strcmp((const char *)a->name, "class") == 0 || strcmp((const char *)a->name, "id") == 0))
            return 0;
    return 1;
}

/* The slot of the bare elements of n's name (NULL: the table is full). */
static bare_entry *bare_slot(contexts_state *st, const xmlNode *n) {
    const xmlChar *href = n->ns ? n->ns->href : NULL;
    size_t h = (((size_t)n->name >> 3) ^ ((size_t)href >> 5)) * (size_t)0x9E3779B1u;
    for (size_t k = 0; k < BARE_SLOTS; k++) {
        size_t i = (h + k) & (BARE_SLOTS - 1);
        if (!st->bare[i].name || (st->bare[i].name == n->name && st->bare[i].href == href)) return &st->bare[i];
    }
    return NULL;
}

/* marks(el.tag, el.get("class"), el.get("id")): a new reference; that of an element
 * without class and id asked once a call per name. */
static PyObject *marks_of(contexts_state *st, struct LxmlElement *el) {
    xmlNode *node = el->_c_node;
    int plain = node->type == XML_ELEMENT_NODE && bare(node);
    bare_entry *slot = plain ? bare_slot(st, node) : NULL;
    if (slot && slot->name) return Py_NewRef(slot->marks);
    PyObject *attrs[3];
    if (tag_class_id(el, attrs) < 0) return NULL;
    PyObject *r = PyObject_Vectorcall(st->marks_fn, attrs, 3, NULL);
    for (int k = 0; k < 3; k++) Py_DECREF(attrs[k]);
    if (r && slot) {
        slot->name = node->name;
        slot->href = node->ns ? node->ns->href : NULL;
        slot->marks = Py_NewRef(r);
    }
    return r;
}

/* The context of el from its parent's (features._child_context): a new reference. */
static PyObject *child_context(contexts_state *st, PyObject *parent, struct LxmlElement *el) {
    if (!PyTuple_Check(parent) || PyTuple_GET_SIZE(parent) != 7) {
        PyErr_SetString(PyExc_TypeError, "a context is a tuple of 7");
        return NULL;
    }
    PyObject *chain = PyTuple_GET_ITEM(parent, 0), *names = PyTuple_GET_ITEM(parent, 1);
    PyObject *above = PyTuple_GET_ITEM(parent, 2), *div = PyTuple_GET_ITEM(parent, 5);
    PyObject *td = PyTuple_GET_ITEM(parent, 6);
    PyObject *out = NULL, *r = marks_of(st, el);
    if (!r) return NULL;
    if (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 3 || !PyTuple_Check(PyTuple_GET_ITEM(r, 1))
            || !PyTuple_Check(chain) || !PyTuple_Check(names) || !PyTuple_Check(above)) {
        PyErr_SetString(PyExc_TypeError, "unexpected marks or context");
        goto done;
    }
    PyObject *tag = PyTuple_GET_ITEM(r, 0), *self = (PyObject *)el;
    int is_td = PySet_Contains(st->td_tags, tag), is_div = PySet_Contains(st->div_tags, tag);
    if (is_td < 0 || is_div < 0 || !(out = PyTuple_New(7))) goto done;
    PyTuple_SET_ITEM(out, 0, tuple_plus(chain, self));
    PyTuple_SET_ITEM(out, 1, tuple_plus(names, tag));
    PyTuple_SET_ITEM(out, 2, inherited_marks(above, PyTuple_GET_ITEM(r, 1)));
    PyTuple_SET_ITEM(out, 3, Py_NewRef(above));
    PyTuple_SET_ITEM(out, 4, Py_NewRef(PyTuple_GET_ITEM(r, 2)));
    PyTuple_SET_ITEM(out, 5, Py_NewRef(is_div ? self : div));
    PyTuple_SET_ITEM(out, 6, Py_NewRef(is_td ? self : td));
    for (int k = 0; k < 3; k++)
        if (!PyTuple_GET_ITEM(out, k)) { Py_CLEAR(out); break; }
done:
    Py_DECREF(r);
    return out;
}

/* A node lxml makes an element proxy for (its _isElement): an element, a comment, an
 * entity reference or a processing instruction. */
static int element_like(const xmlNode *n) {
    return n->type == XML_ELEMENT_NODE || n->type == XML_COMMENT_NODE || n->type == XML_ENTITY_REF_NODE
        || n->type == XML_PI_NODE;
}

/* The parent element of a node as lxml's getparent finds it (NULL: none). */
static xmlNode *parent_element(const xmlNode *n) {
    if (!element_like(n)) return NULL;
    xmlNode *p = n->parent;
    return p && element_like(p) ? p : NULL;
}

/* The context of the element el (a borrowed reference, held by cache), computed with
 * those of its ancestors that cache does not hold yet (features._python_contexts). */
static PyObject *element_context(contexts_state *st, struct LxmlElement *el) {
    PyObject *cache = st->cache;
    PyObject *c = PyDict_GetItemWithError(cache, (PyObject *)el);
    if (c || PyErr_Occurred()) return c;
    PyObject *below = PyList_New(0);  /* el and its ancestors without a context yet, upwards */
    if (!below) return NULL;
    Py_INCREF(el);
    while (!c) {
        xmlNode *parent = parent_element(el->_c_node);
        if (!parent || (PyObject *)el == st->body) {
            if (PyDict_SetItem(cache, (PyObject *)el, st->empty) < 0) goto error;
            c = st->empty;
            break;
        }
        if (PyList_Append(below, (PyObject *)el) < 0) goto error;
        struct LxmlElement *up = elementFactory(el->_doc, parent);
        if (!up) goto error;
        Py_SETREF(el, up);
        c = PyDict_GetItemWithError(cache, (PyObject *)el);
        if (!c && PyErr_Occurred()) goto error;
    }
    Py_DECREF(el);
    for (Py_ssize_t k = PyList_GET_SIZE(below) - 1; k >= 0; k--) {
        PyObject *child = PyList_GET_ITEM(below, k);
        PyObject *made = child_context(st, c, (struct LxmlElement *)child);
        if (!made || PyDict_SetItem(cache, child, made) < 0) {
            Py_XDECREF(made); Py_DECREF(below);
            return NULL;
        }
        Py_DECREF(made);  /* the cache holds it */
        c = made;
    }
    Py_DECREF(below);
    return c;
error:
    Py_DECREF(el); Py_DECREF(below);
    return NULL;
}

/* features.block_contexts: the context of each source element (empty for None). */
static PyObject *block_contexts(PyObject *self, PyObject *args) {
    PyObject *sources, *out = NULL;
    contexts_state st;
    memset(&st, 0, sizeof st);
    if (!PyArg_ParseTuple(args, "OO!O!O!O!O", &st.marks_fn, &PyFrozenSet_Type, &st.td_tags, &PyFrozenSet_Type,
                          &st.div_tags, &PyTuple_Type, &st.empty, &PyList_Type, &sources, &st.body))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(sources);
    if (!(st.cache = PyDict_New()) || !(out = PyList_New(n))) goto error;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *el = PyList_GET_ITEM(sources, i), *c = st.empty;
        if (el != Py_None) {
            if (!PyObject_TypeCheck(el, element_type) || !((struct LxmlElement *)el)->_c_node) {
                PyErr_SetString(PyExc_TypeError, "block_contexts: sources are lxml elements or None");
                goto error;
            }
            c = element_context(&st, (struct LxmlElement *)el);
            if (!c) goto error;
        }
        PyList_SET_ITEM(out, i, Py_NewRef(c));
    }
    goto done;
error:
    Py_CLEAR(out);
done:
    Py_XDECREF(st.cache);
    for (int k = 0; k < BARE_SLOTS; k++) Py_XDECREF(st.bare[k].marks);
    return out;
}

static PyMethodDef methods[] = {
    {"child_steps", child_steps, METH_O, "the locator steps of an element's children"},
    {"navigation_measures", navigation_measures, METH_O, "the letters of an element's links, its longest text"},
    {"text_start", text_start, METH_VARARGS, "the start of an element's text, white space collapsed"},
    {"visible_letters", visible_letters, METH_VARARGS, "characters a reader sees in an element, white space left out"},
    {"make_tables", make_tables, METH_O, "the walk's name table (a capsule)"},
    {"walk", walk, METH_VARARGS, "the structure step's walk of body"},
    {"block_contexts", block_contexts, METH_VARARGS, "each source element's context for the gate's features"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_structure", NULL, -1, methods};

PyMODINIT_FUNC PyInit__structure(void) {
    if (import_lxml__etree() < 0) return NULL;
    PyObject *etree = PyImport_ImportModule("lxml.etree");
    if (!etree) return NULL;
    element_type = (PyTypeObject *)PyObject_GetAttrString(etree, "_Element");
    Py_DECREF(etree);
    if (!element_type) return NULL;
    if (!PyType_Check(element_type)) {
        PyErr_SetString(PyExc_ImportError, "lxml.etree._Element is not a type");
        return NULL;
    }
    return PyModule_Create(&module);
}
