/* The per-block text facts of the boilerplate gate's features, in C.
 *
 * text_facts(raw, strip) -> (text, lower, toks, stripped, alpha, digits, upper, alnum,
 *                            upper_initial, all_upper, with_digit)
 *
 * The same values as kitten/boilerplate/features.py's Python fallback
 * (``_python_text_facts``), operation for operation:
 *   toks     raw.split()
 *   text     " ".join(toks)
 *   lower    text.lower()
 *   stripped [t.strip(strip) for t in lower.split()]
 *   alpha, digits, upper, alnum: the characters of text for which str.isalpha,
 *            str.isdigit, str.isupper, str.isalnum is true
 *   upper_initial, all_upper, with_digit: the tokens whose first character is
 *            upper-case, that are upper-case (str.isupper), that hold a digit
 * Characters are classified with the macros str's own methods use (Py_UNICODE_ISALPHA
 * ...), so the figures cannot differ from the Python loop's.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *SPACE;  /* " " */

/* str.isupper of a whole string (unicode_isupper_impl of CPython) */
static int
is_upper(PyObject *s)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    if (n == 1)
        return Py_UNICODE_ISUPPER(PyUnicode_READ(kind, data, 0)) != 0;
    int cased = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (Py_UNICODE_ISLOWER(ch) || Py_UNICODE_ISTITLE(ch))
            return 0;
        if (!cased && Py_UNICODE_ISUPPER(ch))
            cased = 1;
    }
    return cased;
}

static int
has_digit(PyObject *s)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    for (Py_ssize_t i = 0; i < n; i++)
        if (Py_UNICODE_ISDIGIT(PyUnicode_READ(kind, data, i)))
            return 1;
    return 0;
}

static int
in_set(PyObject *chars, Py_UCS4 ch)
{
    return PyUnicode_FindChar(chars, ch, 0, PyUnicode_GET_LENGTH(chars), 1) >= 0;
}

/* s.strip(chars): a new reference */
static PyObject *
strip(PyObject *s, PyObject *chars)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    Py_ssize_t i = 0, j = n;
    while (i < j && in_set(chars, PyUnicode_READ(kind, data, i)))
        i++;
    while (j > i && in_set(chars, PyUnicode_READ(kind, data, j - 1)))
        j--;
    return PyUnicode_Substring(s, i, j);
}

static PyObject *
text_facts(PyObject *self, PyObject *args)
{
    PyObject *raw, *chars;
    if (!PyArg_ParseTuple(args, "UU", &raw, &chars))
        return NULL;
    PyObject *toks = NULL, *text = NULL, *lower = NULL, *lowers = NULL, *stripped = NULL;
    toks = PyUnicode_Split(raw, NULL, -1);
    if (toks == NULL)
        goto error;
    text = PyUnicode_Join(SPACE, toks);
    if (text == NULL)
        goto error;
    lower = PyObject_CallMethod(text, "lower", NULL);
    if (lower == NULL)
        goto error;
    lowers = PyUnicode_Split(lower, NULL, -1);
    if (lowers == NULL)
        goto error;
    Py_ssize_t n_lowers = PyList_GET_SIZE(lowers);
    stripped = PyList_New(n_lowers);
    if (stripped == NULL)
        goto error;
    for (Py_ssize_t k = 0; k < n_lowers; k++) {
        PyObject *t = strip(PyList_GET_ITEM(lowers, k), chars);
        if (t == NULL)
            goto error;
        PyList_SET_ITEM(stripped, k, t);
    }
    Py_CLEAR(lowers);

    Py_ssize_t alpha = 0, digits = 0, upper = 0, alnum = 0;
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (ch < 128) {  /* what the macros give for ASCII, without their table look-ups */
            int is_up = ch >= 'A' && ch <= 'Z', is_alpha = is_up || (ch >= 'a' && ch <= 'z');
            int is_digit = ch >= '0' && ch <= '9';
            alpha += is_alpha;
            digits += is_digit;
            upper += is_up;
            alnum += is_alpha || is_digit;
            continue;
        }
        alpha += Py_UNICODE_ISALPHA(ch) != 0;
        digits += Py_UNICODE_ISDIGIT(ch) != 0;
        upper += Py_UNICODE_ISUPPER(ch) != 0;
        alnum += Py_UNICODE_ISALNUM(ch) != 0;
    }
    Py_ssize_t upper_initial = 0, all_upper = 0, with_digit = 0;
    Py_ssize_t n_toks = PyList_GET_SIZE(toks);
    for (Py_ssize_t k = 0; k < n_toks; k++) {
        PyObject *t = PyList_GET_ITEM(toks, k);
        if (upper) {
            upper_initial += Py_UNICODE_ISUPPER(PyUnicode_READ_CHAR(t, 0)) != 0;
            all_upper += is_upper(t);
        }
        if (digits)
            with_digit += has_digit(t);
    }
    return Py_BuildValue("(NNNNnnnnnnn)", text, lower, toks, stripped, alpha, digits, upper, alnum,
                         upper_initial, all_upper, with_digit);
error:
    Py_XDECREF(toks);
    Py_XDECREF(text);
    Py_XDECREF(lower);
    Py_XDECREF(lowers);
    Py_XDECREF(stripped);
    return NULL;
}

static PyMethodDef methods[] = {
    {"text_facts", text_facts, METH_VARARGS,
     "text_facts(raw, strip) -> (text, lower, toks, stripped, alpha, digits, upper, alnum, "
     "upper_initial, all_upper, with_digit): see kitten/boilerplate/features.py"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_facts", "The boilerplate gate's per-block text facts in C.", -1, methods,
};

PyMODINIT_FUNC
PyInit__facts(void)
{
    SPACE = PyUnicode_InternFromString(" ");
    if (SPACE == NULL)
        return NULL;
    return PyModule_Create(&module);
}
