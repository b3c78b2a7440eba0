/* Link letters of a list item counted in C (optional; kitten/lists.py walks the item in
 * Python for the same counts, and is used when this module is not built), and the
 * markup of a table cell (kitten/tables/features.py's walk_markup in Python).
 *
 *   link_letters(item) -> (inside, outside)
 *       item: an lxml element. Letters and digits of the text inside links, letters of
 *       the text outside them; (0, 0) when there is no <a> anywhere in the item. Left
 *       out with their subtrees: unseen elements (script, style, select, option, input,
 *       textarea, map, object, applet, noscript) and lists and tables (ul, ol, dl,
 *       menu, dir, table) inside the item; the whole item when it is unseen. A link is
 *       an <a> with href or onclick, or without name and id (kitten.lists._is_link);
 *       text under the outermost link counts as inside. Comments, processing
 *       instructions and entity references count for nothing, their tails do.
 *       A letter is a character of Python's regular expression [^\W\d_], a letter or
 *       digit one of [^\W_] (Py_UNICODE_ISALNUM, less Py_UNICODE_ISDECIMAL for letters).
 *
 *   block_link_letters(sources, body) -> dict
 *       The boilerplate gate's link letters (kitten/boilerplate/features.py, whose
 *       ``_python_link_letters`` does the same in Python): the letters and digits of the
 *       text of each link of ``body`` (an XHTML <a> with an href or an onclick, ``body``
 *       itself included; its text: every text and CDATA node under it, comments and
 *       processing instructions left out but not what follows them, as lxml's itertext
 *       reads it), added up per nearest ancestor-or-self of the link among ``sources``
 *       (lxml elements, or None), keyed by that element, in the order of the first link
 *       of each.
 *
 *   cell_markup(cell, bold_style) -> (tags, link_chars, images, forms, emphasis_chars) or None
 *       What the elements under a table cell hold, as kitten/tables/features.py's
 *       ``walk_markup`` counts them in Python: every element under ``cell`` (not the
 *       cell) is a tag; an XHTML <a> with an href adds the characters of its text to
 *       link_chars, an <img> is an image, an <input>, <select>, <textarea> or <button> a
 *       form control, a b, strong, em, i, u or h1-h6 adds its text's characters to
 *       emphasis_chars, and so does any other element whose non-empty style attribute
 *       ``bold_style`` (a callable: the pattern's search) finds true. An element's text
 *       is every text and CDATA node under it, as lxml's itertext reads it, its
 *       characters counted as Python counts them after str.strip(). None when a style
 *       is not one text node (an entity reference in it): the caller walks in Python.
 *
 * The tree is read through lxml's element proxy: its first fields (struct LxmlElement
 * of lxml/etree.h: PyObject_HEAD, the document, the libxml2 node) have been the same
 * since lxml 2; the type is checked against lxml.etree._Element first.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/tree.h>

typedef struct {
    PyObject_HEAD
    void *doc;
    xmlNode *c_node;
} LxmlElement;

static PyObject *element_type; /* lxml.etree._Element */

static const char XHTML_NS[] = "http://www.w3.org/1999/xhtml";
static const char *const LEFT_OUT[] = {
    "script", "style", "select", "option", "input", "textarea", "map", "object", "applet", "noscript",
    "ul", "ol", "dl", "menu", "dir", "table", NULL};
static const char *const UNSEEN_END = "ul"; /* LEFT_OUT before this entry: unseen elements */

/* The local name of an XHTML element, NULL for any other node. */
static const char *xhtml_name(const xmlNode *n) {
    if (n->type != XML_ELEMENT_NODE || n->ns == NULL || n->ns->href == NULL) return NULL;
    if (strcmp((const char *)n->ns->href, XHTML_NS) != 0) return NULL;
    return (const char *)n->name;
}

/* 1 when name is left out (unseen = 0: any entry; unseen = 1: unseen elements only). */
static int left_out(const char *name, int unseen) {
    for (const char *const *p = LEFT_OUT; *p; p++) {
        if (unseen && *p == UNSEEN_END) return 0;
        if (strcmp(*p, name) == 0) return 1;
    }
    return 0;
}

/* An attribute without namespace, as lxml's get(name) finds it. */
static int has_attribute(const xmlNode *n, const char *name) {
    for (const xmlAttr *a = n->properties; a; a = a->next)
        if (a->ns == NULL && strcmp((const char *)a->name, name) == 0) return 1;
    return 0;
}

static int is_link(const xmlNode *a) {
    if (has_attribute(a, "href") || has_attribute(a, "onclick")) return 1;
    return !has_attribute(a, "name") && !has_attribute(a, "id");
}

/* The node after n and its subtree in document order, within top (NULL past its end);
 * *link is cleared when the subtree of the link it points to is left. */
static const xmlNode *after(const xmlNode *n, const xmlNode *top, const xmlNode **link) {
    while (n != top) {
        if (n == *link) *link = NULL;
        if (n->next) return n->next;
        n = n->parent;
    }
    return NULL;
}

static int has_anchor(const xmlNode *item) {
    const xmlNode *none = NULL;
    for (const xmlNode *n = item; n;) {
        const char *name = xhtml_name(n);
        if (name && strcmp(name, "a") == 0) return 1;
        if (n->type == XML_ELEMENT_NODE && n->children) n = n->children;
        else n = after(n, item, &none);
    }
    return 0;
}

#define NOT_UTF8 0xFFFFFFFFu

/* The code point of the UTF-8 sequence at *p, *p moved past it; NOT_UTF8 (one byte
 * skipped) for a byte that starts none (libxml2 never stores such text). */
static Py_UCS4 decode(const unsigned char **p) {
    const unsigned char *s = *p;
    Py_UCS4 c = *s;
    if (c < 0x80) {
        *p = s + 1;
    } else if (c >= 0xF0 && s[1] && s[2] && s[3]) {
        c = ((c & 0x07) << 18) | ((s[1] & 0x3F) << 12) | ((s[2] & 0x3F) << 6) | (s[3] & 0x3F);
        *p = s + 4;
    } else if (c >= 0xE0 && s[1] && s[2]) {
        c = ((c & 0x0F) << 12) | ((s[1] & 0x3F) << 6) | (s[2] & 0x3F);
        *p = s + 3;
    } else if (c >= 0xC0 && s[1]) {
        c = ((c & 0x1F) << 6) | (s[1] & 0x3F);
        *p = s + 2;
    } else {
        *p = s + 1;
        c = NOT_UTF8;
    }
    return c;
}

/* Adds the letters and digits (inside) or the letters (outside) of UTF-8 text. */
static void count(const unsigned char *s, int inside, Py_ssize_t *n) {
    while (*s) {
        Py_UCS4 c = *s;
        if (c < 0x80) {
            s++;
            if (inside ? (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z')
                       : ((c | 32) >= 'a' && (c | 32) <= 'z'))
                (*n)++;
            continue;
        }
        if ((c = decode(&s)) == NOT_UTF8) continue;
        if (Py_UNICODE_ISALNUM(c) && (inside || !Py_UNICODE_ISDECIMAL(c))) (*n)++;
    }
}

/* The code points of UTF-8 text into *total, whitespace (Py_UNICODE_ISSPACE, what
 * str.strip() removes) tracked: *lead counts the code points before the first other one
 * (while *seen is 0), *trail those after the last other one. */
static void measure(const unsigned char *s, Py_ssize_t *total, Py_ssize_t *lead, Py_ssize_t *trail, int *seen) {
    while (*s) {
        Py_UCS4 c = decode(&s);
        if (c == NOT_UTF8) continue;
        (*total)++;
        if (Py_UNICODE_ISSPACE(c)) {
            if (*seen) (*trail)++;
            else (*lead)++;
        } else {
            *seen = 1;
            *trail = 0;
        }
    }
}

/* The characters of the text under element e (not its tail) without the white space at
 * its ends: len("".join(e.itertext()).strip()). */
static Py_ssize_t stripped_length(const xmlNode *e) {
    const xmlNode *none = NULL;
    Py_ssize_t total = 0, lead = 0, trail = 0;
    int seen = 0;
    for (const xmlNode *n = e->children; n;) {
        if ((n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) && n->content)
            measure(n->content, &total, &lead, &trail, &seen);
        else if (n->type == XML_ELEMENT_NODE && n->children) {
            n = n->children;
            continue;
        }
        n = after(n, e, &none);
    }
    return seen ? total - lead - trail : 0;
}

/* The value of an attribute without namespace: "" when empty, NULL when absent; *plain is
 * cleared when the value is not one text node (read as lxml reads it only in Python). */
static const char *plain_attribute(const xmlNode *n, const char *name, int *plain) {
    for (const xmlAttr *a = n->properties; a; a = a->next) {
        if (a->ns != NULL || strcmp((const char *)a->name, name) != 0) continue;
        const xmlNode *c = a->children;
        if (c == NULL) return "";
        if (c->next == NULL && c->type == XML_TEXT_NODE && c->content) return (const char *)c->content;
        *plain = 0;
        return NULL;
    }
    return NULL;
}

static int in_names(const char *name, const char *const *names) {
    for (const char *const *p = names; *p; p++)
        if (strcmp(*p, name) == 0) return 1;
    return 0;
}

static const char *const FORM_CONTROLS[] = {"input", "select", "textarea", "button", NULL};
static const char *const EMPHASIS[] = {"b", "strong", "em", "i", "u", "h1", "h2", "h3", "h4", "h5", "h6", NULL};

/* 1 when the search callable finds the style true, 0 when not, -1 on an error. */
static int style_matches(PyObject *search, const char *style) {
    PyObject *value = PyUnicode_FromString(style);
    if (value == NULL) return -1;
    PyObject *found = PyObject_CallOneArg(search, value);
    Py_DECREF(value);
    if (found == NULL) return -1;
    int r = PyObject_IsTrue(found);
    Py_DECREF(found);
    return r;
}

static PyObject *cell_markup(PyObject *self, PyObject *args) {
    PyObject *cell, *search;
    if (!PyArg_ParseTuple(args, "OO", &cell, &search)) return NULL;
    if (!PyObject_TypeCheck(cell, (PyTypeObject *)element_type)) {
        PyErr_SetString(PyExc_TypeError, "cell_markup: an lxml element expected");
        return NULL;
    }
    const xmlNode *top = ((LxmlElement *)cell)->c_node, *none = NULL;
    Py_ssize_t tags = 0, links = 0, images = 0, forms = 0, emphasis = 0;
    if (top == NULL || top->type != XML_ELEMENT_NODE) Py_RETURN_NONE;
    for (const xmlNode *n = top->children; n;) {
        if (n->type != XML_ELEMENT_NODE) {
            n = after(n, top, &none);
            continue;
        }
        tags++;
        const char *name = xhtml_name(n);
        if (name && strcmp(name, "a") == 0 && has_attribute(n, "href")) links += stripped_length(n);
        else if (name && strcmp(name, "img") == 0) images++;
        else if (name && in_names(name, FORM_CONTROLS)) forms++;
        else if (name && in_names(name, EMPHASIS)) emphasis += stripped_length(n);
        else {
            int plain = 1;
            const char *style = plain_attribute(n, "style", &plain);
            if (!plain) Py_RETURN_NONE;
            if (style && *style) {
                int r = style_matches(search, style);
                if (r < 0) return NULL;
                if (r) emphasis += stripped_length(n);
            }
        }
        if (n->children) n = n->children;
        else n = after(n, top, &none);
    }
    return Py_BuildValue("(nnnnn)", tags, links, images, forms, emphasis);
}

static PyObject *link_letters(PyObject *self, PyObject *arg) {
    if (!PyObject_TypeCheck(arg, (PyTypeObject *)element_type)) {
        PyErr_SetString(PyExc_TypeError, "link_letters: an lxml element expected");
        return NULL;
    }
    const xmlNode *item = ((LxmlElement *)arg)->c_node;
    Py_ssize_t inside = 0, outside = 0;
    if (item == NULL || !has_anchor(item)) return Py_BuildValue("(nn)", inside, outside);
    const char *name = xhtml_name(item);
    if (name && left_out(name, 1)) return Py_BuildValue("(nn)", inside, outside);
    const xmlNode *link = NULL; /* the outermost link the walk is in */
    if (name && strcmp(name, "a") == 0 && is_link(item)) link = item;
    if (item->type != XML_ELEMENT_NODE) return Py_BuildValue("(nn)", inside, outside);
    for (const xmlNode *n = item->children; n;) {
        if (n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) {
            if (n->content) count(n->content, link != NULL, link ? &inside : &outside);
        } else if (n->type == XML_ELEMENT_NODE) {
            name = xhtml_name(n);
            if (!(name && left_out(name, 0))) {
                if (!link && name && strcmp(name, "a") == 0 && is_link(n)) link = n;
                if (n->children) {
                    n = n->children;
                    continue;
                }
            }
        }
        n = after(n, item, &link);
    }
    return Py_BuildValue("(nn)", inside, outside);
}

/* a block's source element for block_link_letters: its node, its proxy, its letters and
   its place among the sources holding a link (-1: none yet) */
typedef struct {
    const xmlNode *node;
    PyObject *el;
    Py_ssize_t letters;
    Py_ssize_t rank;
} Source;

static int by_node(const void *x, const void *y) {
    const xmlNode *a = ((const Source *)x)->node, *b = ((const Source *)y)->node;
    return a < b ? -1 : a > b;
}

/* The source of node n among the m sorted sources, NULL when n is none of them. */
static Source *source_of(Source *src, Py_ssize_t m, const xmlNode *n) {
    Py_ssize_t lo = 0, hi = m;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (src[mid].node == n) return &src[mid];
        if (src[mid].node < n) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

/* The letters and digits of the text nodes under element a (not its tail). */
static Py_ssize_t text_alnum(const xmlNode *a) {
    const xmlNode *none = NULL;
    Py_ssize_t k = 0;
    for (const xmlNode *n = a->children; n;) {
        if ((n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) && n->content)
            count(n->content, 1, &k);
        else if (n->type == XML_ELEMENT_NODE && n->children) {
            n = n->children;
            continue;
        }
        n = after(n, a, &none);
    }
    return k;
}

/* The sources' nodes and proxies (None left out), sorted by node, each node once; -1 on
   an error. */
static Py_ssize_t read_sources(PyObject *sources, Source *src) {
    Py_ssize_t m = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(sources); i++) {
        PyObject *el = PyList_GET_ITEM(sources, i);
        if (el == Py_None) continue;
        if (!PyObject_TypeCheck(el, (PyTypeObject *)element_type)) {
            PyErr_SetString(PyExc_TypeError, "block_link_letters: lxml elements or None expected");
            return -1;
        }
        src[m++] = (Source){((LxmlElement *)el)->c_node, el, 0, -1};
    }
    qsort(src, m, sizeof(Source), by_node);
    Py_ssize_t u = 0;
    for (Py_ssize_t i = 0; i < m; i++)
        if (u == 0 || src[i].node != src[u - 1].node) src[u++] = src[i];
    return u;
}

static PyObject *block_link_letters(PyObject *self, PyObject *args) {
    PyObject *sources, *body;
    if (!PyArg_ParseTuple(args, "O!O", &PyList_Type, &sources, &body)) return NULL;
    if (!PyObject_TypeCheck(body, (PyTypeObject *)element_type)) {
        PyErr_SetString(PyExc_TypeError, "block_link_letters: body must be an lxml element");
        return NULL;
    }
    Py_ssize_t n_sources = PyList_GET_SIZE(sources);
    Source *src = PyMem_New(Source, n_sources > 0 ? n_sources : 1);
    Py_ssize_t *ranked = PyMem_New(Py_ssize_t, n_sources > 0 ? n_sources : 1);
    PyObject *out = NULL;
    if (src == NULL || ranked == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t m = read_sources(sources, src), n_ranked = 0;
    if (m < 0) goto done;
    const xmlNode *top = ((LxmlElement *)body)->c_node, *none = NULL;
    for (const xmlNode *n = top; n;) {
        if (n->type == XML_ELEMENT_NODE) {
            const char *name = xhtml_name(n);
            if (name && strcmp(name, "a") == 0 && (has_attribute(n, "href") || has_attribute(n, "onclick"))) {
                Source *owner = NULL;
                for (const xmlNode *p = n; p && p->type == XML_ELEMENT_NODE && !owner; p = p->parent)
                    owner = source_of(src, m, p);
                if (owner) {
                    if (owner->rank < 0) {
                        owner->rank = n_ranked;
                        ranked[n_ranked++] = owner - src;
                    }
                    owner->letters += text_alnum(n);
                }
            }
            if (n->children) {
                n = n->children;
                continue;
            }
        }
        n = after(n, top, &none);
    }
    if ((out = PyDict_New()) == NULL) goto done;
    for (Py_ssize_t r = 0; r < n_ranked; r++) {
        PyObject *v = PyLong_FromSsize_t(src[ranked[r]].letters);
        if (v == NULL || PyDict_SetItem(out, src[ranked[r]].el, v) < 0) {
            Py_XDECREF(v);
            Py_CLEAR(out);
            goto done;
        }
        Py_DECREF(v);
    }
done:
    PyMem_Free(src);
    PyMem_Free(ranked);
    return out;
}

static PyMethodDef methods[] = {
    {"link_letters", link_letters, METH_O, "(letters and digits inside links, letters outside) of an item"},
    {"block_link_letters", block_link_letters, METH_VARARGS,
     "block_link_letters(sources, body) -> dict: letters and digits inside links per block source element"},
    {"cell_markup", cell_markup, METH_VARARGS,
     "cell_markup(cell, bold_style) -> (tags, link_chars, images, forms, emphasis_chars) or None"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_links", NULL, -1, methods};

PyMODINIT_FUNC PyInit__links(void) {
    PyObject *etree = PyImport_ImportModule("lxml.etree");
    if (etree == NULL) return NULL;
    element_type = PyObject_GetAttrString(etree, "_Element");
    Py_DECREF(etree);
    if (element_type == NULL) return NULL;
    return PyModule_Create(&module);
}
