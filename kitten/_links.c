/* Link letters of a list item counted in C (optional; kitten/lists.py walks the item in
 * Python for the same counts, and is used when this module is not built).
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
 * The tree is read through lxml's element proxy: its first fields (struct LxmlElement
 * of lxml/etree.h: PyObject_HEAD, the document, the libxml2 node) have been the same
 * since lxml 2; the type is checked against lxml.etree._Element first.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
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
        if (c >= 0xF0 && s[1] && s[2] && s[3]) {
            c = ((c & 0x07) << 18) | ((s[1] & 0x3F) << 12) | ((s[2] & 0x3F) << 6) | (s[3] & 0x3F);
            s += 4;
        } else if (c >= 0xE0 && s[1] && s[2]) {
            c = ((c & 0x0F) << 12) | ((s[1] & 0x3F) << 6) | (s[2] & 0x3F);
            s += 3;
        } else if (c >= 0xC0 && s[1]) {
            c = ((c & 0x1F) << 6) | (s[1] & 0x3F);
            s += 2;
        } else {
            s++; /* not UTF-8 (libxml2 never stores such text) */
            continue;
        }
        if (Py_UNICODE_ISALNUM(c) && (inside || !Py_UNICODE_ISDECIMAL(c))) (*n)++;
    }
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

static PyMethodDef methods[] = {
    {"link_letters", link_letters, METH_O, "(letters and digits inside links, letters outside) of an item"},
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
