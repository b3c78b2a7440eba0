/* The per-block text facts of the boilerplate gate's features, in C.
 *
 * text_facts(raw, strip) -> (text, lower, tokens, stripped, alpha, digits, upper, alnum,
 *                            upper_initial, all_upper, with_digit, words, sentences)
 *
 * The same values as kitten/boilerplate/features.py's Python fallback
 * (``_python_text_facts``), operation for operation:
 *   tokens   len(raw.split())
 *   text     " ".join(raw.split()) (made in one pass, without the tokens' strings)
 *   lower    text.lower()
 *   stripped [t.strip(strip) for t in lower.split()]
 *   alpha, digits, upper, alnum: the characters of text for which str.isalpha,
 *            str.isdigit, str.isupper, str.isalnum is true
 *   upper_initial, all_upper, with_digit: the tokens whose first character is
 *            upper-case, that are upper-case (str.isupper), that hold a digit
 *   words    tokens + unspaced // 2 (unspaced: the characters of the ranges of
 *            _UNSPACED, scripts written without spaces)
 *   sentences  0 without words, else max(1, text.count(". ") + text.count("! ")
 *            + text.count("? ") + (text[-1] in ".!?") + the full stops of _FULL_STOPS
 *            when unspaced)
 * Characters are classified with the macros str's own methods use (Py_UNICODE_ISALPHA
 * ...), so the figures cannot differ from the Python loop's.
 *
 * block_facts(texts, sources, links, strip, cls) -> list: the ``_Facts`` (``cls``, a named
 * tuple) of each block of a page from its text's facts as above, its link letters
 * min(links.get(source, 0), alnum) and (upper_initial, all_upper, with_digit) as one
 * tuple: ``_block_facts`` of features.py (its Python fallback) for all blocks in one call.
 *
 * ascii_dates(text) -> (date, time): whether features.py's ``_DATE`` and ``_TIME`` match an
 * ASCII ``text`` somewhere, without the regular-expression engine: each alternative's
 * backtracking worked out by hand (a digit run of bounded length followed by a
 * separator, a space or a word's end must be the whole run), with re's ASCII classes
 * (\w letters, digits and _, \s white space and \x1c-\x1f, re.I's [a-z] the ASCII letters).
 *
 * content(own, facts, stop, names, ratios, counts, end_stop): the ``content`` family's
 * features up to ``end.*`` for every block of a page whose stop-word list is known
 * (``_content_counts`` in features.py, the Python loop it replaces, operation for
 * operation): appended to each block's list of ``own``. ``names``: the tuple of name
 * lists of CONTENT_NAMES' prefixes, in order; ``ratios``, ``counts``: the thresholds
 * with -inf first (``_below``); a value's name is names[bisect_right(below, v) - 1].
 *
 * feature_sums(own, index, weights, out): each block's sum of the weight rows of its
 * features (``Scorer.sums`` in crf.py, whose numpy fallback it replaces): out[i] =
 * weights[0] + the rows index[f] (0 for a feature not in ``index``) of own[i]'s
 * features, added in the order numpy's ``add.reduceat`` adds them (its pairwise
 * summation, :c:func:`pairwise`), so the sums are the same to the last bit.
 * ``weights``, ``out``: C-contiguous float64 buffers of as many columns; ``out`` has a
 * row per block.
 *
 * forward_backward(u, t, out): each block's marginal probability of each label
 * (``Scorer.marginals`` in crf.py, whose numpy prefix scans it replaces): ``u`` the
 * blocks' state potentials (blocks x labels, exp of the scores less each row's
 * largest), ``t`` the transition potentials (labels x labels); the forward and backward
 * vectors computed block after block, each divided by its largest entry (a vector is
 * needed only up to its scale), then out[i] = alpha[i] * beta[i] divided by its sum.
 * The same probabilities as the scans to about 1e-15 (another order of the same
 * products). ``u``, ``t``, ``out``: C-contiguous float64 buffers.
 *
 * contexts(sources, body, marks, td_tags, div_tags, empty) -> list: the context of
 * each source element (``empty`` for None), each element's computed once from its
 * parent's, as ``_python_contexts`` in features.py (the Python fallback it replaces,
 * step for step): ``marks`` is features.py's ``_marks``, ``td_tags`` and ``div_tags``
 * the frozensets ``_TD`` and ``_DIVS``, ``empty`` the context ``_NO_CONTEXT`` of an
 * element outside ``body`` (and of ``body`` itself).
 *
 * (The blocks' link letters are counted on lxml's tree itself: ``block_link_letters`` of
 * kitten/_links.c.)
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* str.isupper of the characters [start, end) of a string's ``data`` of ``kind``
   (unicode_isupper_impl of CPython) */
static int
is_upper(int kind, const void *data, Py_ssize_t start, Py_ssize_t end)
{
    if (end - start == 1)
        return Py_UNICODE_ISUPPER(PyUnicode_READ(kind, data, start)) != 0;
    int cased = 0;
    for (Py_ssize_t i = start; i < end; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (Py_UNICODE_ISLOWER(ch) || Py_UNICODE_ISTITLE(ch))
            return 0;
        if (!cased && Py_UNICODE_ISUPPER(ch))
            cased = 1;
    }
    return cased;
}

/* does [start, end) of a string's ``data`` of ``kind`` hold a str.isdigit character? */
static int
has_digit(int kind, const void *data, Py_ssize_t start, Py_ssize_t end)
{
    for (Py_ssize_t i = start; i < end; i++)
        if (Py_UNICODE_ISDIGIT(PyUnicode_READ(kind, data, i)))
            return 1;
    return 0;
}

/* " ".join(s.split()) (``s`` itself when that is the same text), and into ``n_toks``
   the number of tokens: two passes, the first finding the result's length and largest
   character (a string is made in the smallest kind that holds its characters) */
static PyObject *
collapsed(PyObject *s, Py_ssize_t *n_toks)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(s), kept = 0, toks = 0, spaces = 0;
    int kind = PyUnicode_KIND(s), in_token = 0;
    const void *data = PyUnicode_DATA(s);
    Py_UCS4 maxchar = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (Py_UNICODE_ISSPACE(ch)) {
            spaces += ch == ' ';
            in_token = 0;
            continue;
        }
        toks += !in_token;
        in_token = 1;
        kept++;
        if (ch > maxchar)
            maxchar = ch;
    }
    *n_toks = toks;
    Py_ssize_t size = kept + (toks ? toks - 1 : 0);
    if (size == n && spaces == n - kept)  /* single spaces between tokens only */
        return Py_NewRef(s);
    PyObject *out = PyUnicode_New(size, toks > 1 && maxchar < ' ' ? ' ' : maxchar);
    if (out == NULL)
        return NULL;
    int okind = PyUnicode_KIND(out);
    void *odata = PyUnicode_DATA(out);
    Py_ssize_t j = 0;
    in_token = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (Py_UNICODE_ISSPACE(ch)) {
            in_token = 0;
            continue;
        }
        if (!in_token && j > 0)
            PyUnicode_WRITE(okind, odata, j++, ' ');
        in_token = 1;
        PyUnicode_WRITE(okind, odata, j++, ch);
    }
    return out;
}

static int
in_set(PyObject *chars, Py_UCS4 ch)
{
    return PyUnicode_FindChar(chars, ch, 0, PyUnicode_GET_LENGTH(chars), 1) >= 0;
}

/* in_set with the ASCII characters of ``chars`` looked up in ``ascii`` (bit c of
   ascii[c >> 6] set for each ASCII character c of chars, :func:`ascii_bits`) */
static inline int
in_chars(PyObject *chars, const uint64_t *ascii, Py_UCS4 ch)
{
    return ch < 128 ? (int)((ascii[ch >> 6] >> (ch & 63)) & 1) : in_set(chars, ch);
}

static void
ascii_bits(PyObject *chars, uint64_t *ascii)
{
    ascii[0] = ascii[1] = 0;
    int kind = PyUnicode_KIND(chars);
    const void *data = PyUnicode_DATA(chars);
    for (Py_ssize_t i = 0; i < PyUnicode_GET_LENGTH(chars); i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (ch < 128)
            ascii[ch >> 6] |= (uint64_t)1 << (ch & 63);
    }
}

/* counts[0..3] (alpha, digits, upper, alnum) of an ASCII character ``ch``: what
   Py_UNICODE_ISALPHA ... give for it, without their table look-ups */
static inline void
count_ascii(Py_UCS4 ch, Py_ssize_t *counts)
{
    int is_up = ch >= 'A' && ch <= 'Z', is_alpha = is_up || (ch >= 'a' && ch <= 'z');
    int is_digit = ch >= '0' && ch <= '9';
    counts[0] += is_alpha;
    counts[1] += is_digit;
    counts[2] += is_up;
    counts[3] += is_alpha || is_digit;
}

/* is ``ch`` of a script written without spaces (the ranges of _UNSPACED in features.py)? */
static int
is_unspaced(Py_UCS4 ch)
{
    return (ch >= 0x0E00 && ch <= 0x0EFF) || (ch >= 0x1000 && ch <= 0x109F) || (ch >= 0x1780 && ch <= 0x17FF)
        || (ch >= 0x3040 && ch <= 0x30FF) || (ch >= 0x3400 && ch <= 0x4DBF) || (ch >= 0x4E00 && ch <= 0x9FFF)
        || (ch >= 0xF900 && ch <= 0xFAFF);
}

/* [t.strip(chars) for t in s.split()]: each white-space token of ``s`` with the
   characters of ``chars`` stripped from its ends (empty ones kept), one substring each */
static PyObject *
stripped_tokens(PyObject *s, PyObject *chars)
{
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    uint64_t ascii[2];
    ascii_bits(chars, ascii);
    Py_ssize_t k = 0;
    while (k < n) {
        while (k < n && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, k)))
            k++;
        if (k == n)
            break;
        Py_ssize_t end = k;
        while (end < n && !Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, end)))
            end++;
        Py_ssize_t i = k, j = end;
        while (i < j && in_chars(chars, ascii, PyUnicode_READ(kind, data, i)))
            i++;
        while (j > i && in_chars(chars, ascii, PyUnicode_READ(kind, data, j - 1)))
            j--;
        PyObject *t = PyUnicode_Substring(s, i, j);
        if (t == NULL || PyList_Append(out, t) < 0) {
            Py_XDECREF(t);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(t);
        k = end;
    }
    return out;
}

static PyObject *LOWER;  /* "lower", interned */

/* the facts of ``raw`` (``chars``: the punctuation stripped from the tokens), as
   text_facts returns them, into ``out`` (13 new references, in text_facts' order) */
static int
facts_of(PyObject *raw, PyObject *chars, PyObject **out)
{
    PyObject *text = NULL, *lower = NULL, *stripped = NULL;
    Py_ssize_t n_toks;
    text = collapsed(raw, &n_toks);
    if (text == NULL)
        goto error;
    Py_ssize_t counts[4] = {0, 0, 0, 0};  /* alpha, digits, upper, alnum */
    Py_ssize_t unspaced = 0, full_stops = 0, stops = 0;
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_UCS4 prev = 0;
    if (PyUnicode_IS_ASCII(text)) {  /* the ASCII branch of the loop below, on the bytes */
        const Py_UCS1 *b = (const Py_UCS1 *)data;
        for (Py_ssize_t i = 0; i < n; prev = b[i], i++) {
            stops += b[i] == ' ' && (prev == '.' || prev == '!' || prev == '?');
            count_ascii(b[i], counts);
        }
    }
    else  /* some character is not ASCII */
    for (Py_ssize_t i = 0; i < n; prev = PyUnicode_READ(kind, data, i), i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        stops += ch == ' ' && (prev == '.' || prev == '!' || prev == '?');
        if (ch < 128) {
            count_ascii(ch, counts);
            continue;
        }
        counts[0] += Py_UNICODE_ISALPHA(ch) != 0;
        counts[1] += Py_UNICODE_ISDIGIT(ch) != 0;
        counts[2] += Py_UNICODE_ISUPPER(ch) != 0;
        counts[3] += Py_UNICODE_ISALNUM(ch) != 0;
        unspaced += is_unspaced(ch);
        full_stops += ch == 0x3002 || ch == 0xFF01 || ch == 0xFF1F || ch == 0xFF61;
    }
    Py_ssize_t alpha = counts[0], digits = counts[1], upper = counts[2], alnum = counts[3];
    /* an ASCII text without upper-case letters is its own lower-case (text.lower() makes
       an equal string) */
    lower = PyUnicode_IS_ASCII(text) && !upper ? Py_NewRef(text) : PyObject_CallMethodNoArgs(text, LOWER);
    if (lower == NULL)
        goto error;
    stripped = stripped_tokens(lower, chars);
    if (stripped == NULL)
        goto error;
    Py_ssize_t words = n_toks + unspaced / 2, sentences = 0;
    if (words) {
        Py_UCS4 last = PyUnicode_READ(kind, data, n - 1);
        sentences = stops + (unspaced ? full_stops : 0) + (last == '.' || last == '!' || last == '?');
        if (sentences < 1)
            sentences = 1;
    }
    /* the tokens of text: separated by single spaces */
    Py_ssize_t upper_initial = 0, all_upper = 0, with_digit = 0;
    if (upper || digits) {
        for (Py_ssize_t start = 0; start < n;) {
            Py_ssize_t end = start;
            while (end < n && PyUnicode_READ(kind, data, end) != ' ')
                end++;
            if (upper) {
                upper_initial += Py_UNICODE_ISUPPER(PyUnicode_READ(kind, data, start)) != 0;
                all_upper += is_upper(kind, data, start, end);
            }
            if (digits)
                with_digit += has_digit(kind, data, start, end);
            start = end + 1;
        }
    }
    out[0] = text;
    out[1] = lower;
    out[3] = stripped;
    Py_ssize_t ints[13] = {0, 0, n_toks, 0, alpha, digits, upper, alnum, upper_initial, all_upper, with_digit,
                           words, sentences};
    for (int k = 0; k < 13; k++) {
        if (k == 0 || k == 1 || k == 3)
            continue;
        if ((out[k] = PyLong_FromSsize_t(ints[k])) == NULL) {
            for (int j = 0; j < k; j++)
                Py_DECREF(out[j]);
            return -1;
        }
    }
    return 0;
error:
    Py_XDECREF(text);
    Py_XDECREF(lower);
    Py_XDECREF(stripped);
    return -1;
}

static PyObject *
text_facts(PyObject *self, PyObject *args)
{
    PyObject *raw, *chars, *v[13];
    if (!PyArg_ParseTuple(args, "UU", &raw, &chars))
        return NULL;
    if (facts_of(raw, chars, v) < 0)
        return NULL;
    PyObject *out = PyTuple_New(13);
    if (out == NULL) {
        for (int k = 0; k < 13; k++)
            Py_DECREF(v[k]);
        return NULL;
    }
    for (int k = 0; k < 13; k++)
        PyTuple_SET_ITEM(out, k, v[k]);
    return out;
}

/* the positions in text_facts' tuple of the fields of features.py's _Facts, in its order
   (-1: link_letters, -2: token_counts, made here) */
static const int FACTS_ORDER[12] = {0, 1, 2, 3, 11, -1, 7, 4, 5, 6, -2, 12};

static PyObject *
block_facts(PyObject *self, PyObject *args)
{
    PyObject *texts, *sources, *links, *chars, *cls;
    if (!PyArg_ParseTuple(args, "O!O!O!UO!", &PyList_Type, &texts, &PyList_Type, &sources, &PyDict_Type, &links,
                          &chars, &PyType_Type, &cls))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(texts);
    if (PyList_GET_SIZE(sources) != n || !PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type)) {
        PyErr_SetString(PyExc_ValueError, "texts and sources differ in length, or cls is not a tuple type");
        return NULL;
    }
    PyObject *out = PyList_New(n);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *raw = PyList_GET_ITEM(texts, i), *v[13];
        if (!PyUnicode_Check(raw)) {
            PyErr_SetString(PyExc_TypeError, "a block's text is not a str");
            goto error;
        }
        if (facts_of(raw, chars, v) < 0)
            goto error;
        PyObject *f = ((PyTypeObject *)cls)->tp_alloc((PyTypeObject *)cls, 12);
        PyObject *counts = PyTuple_Pack(3, v[8], v[9], v[10]);
        PyObject *found = PyDict_GetItemWithError(links, PyList_GET_ITEM(sources, i));  /* borrowed */
        Py_ssize_t link = found == NULL ? 0 : PyLong_AsSsize_t(found);
        Py_ssize_t letters = PyLong_AsSsize_t(v[7]);
        PyObject *ll = PyErr_Occurred() ? NULL : PyLong_FromSsize_t(link < letters ? link : letters);
        if (f == NULL || counts == NULL || ll == NULL) {
            Py_XDECREF(f);
            Py_XDECREF(counts);
            Py_XDECREF(ll);
            for (int k = 0; k < 13; k++)
                Py_DECREF(v[k]);
            goto error;
        }
        for (int k = 0; k < 12; k++) {
            int at = FACTS_ORDER[k];
            PyTuple_SET_ITEM(f, k, at == -1 ? ll : at == -2 ? counts : Py_NewRef(v[at]));
        }
        for (int k = 0; k < 13; k++)
            Py_DECREF(v[k]);
        PyList_SET_ITEM(out, i, f);
    }
    return out;
error:
    Py_DECREF(out);
    return NULL;
}

/* names[bisect_right(below, v) - 1] as a new reference (below[0] is -inf) */
static PyObject *
bucket_name(PyObject *names, const double *below, Py_ssize_t n_below, double v)
{
    Py_ssize_t lo = 0, hi = n_below;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (v < below[mid])
            hi = mid;
        else
            lo = mid + 1;
    }
    PyObject *name = PyList_GET_ITEM(names, lo - 1);
    Py_INCREF(name);
    return name;
}

static double *
doubles(PyObject *seq, Py_ssize_t *n)
{
    PyObject *fast = PySequence_Fast(seq, "thresholds must be a sequence");
    if (fast == NULL)
        return NULL;
    *n = PySequence_Fast_GET_SIZE(fast);
    double *out = PyMem_New(double, *n > 0 ? *n : 1);
    if (out == NULL) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < *n; i++) {
        out[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1.0 && PyErr_Occurred()) {
            PyMem_Free(out);
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    return out;
}

/* the attributes of a block's facts the content family reads */
enum { A_TEXT, A_ALPHA, A_DIGITS, A_UPPER, A_WORDS, A_TOKENS, A_COUNTS, A_STRIPPED, A_SENTENCES, N_ATTRS };
static const char *ATTR_NAMES[N_ATTRS] = {"text", "alpha", "digits", "upper", "words", "tokens", "token_counts",
                                          "stripped", "sentences"};
static PyObject *ATTRS[N_ATTRS];
/* begin.upper, begin.lower, begin.digit, begin.other, end.stop, end.colon, end.other */
static PyObject *FIXED[7];
/* the name lists of the ``names`` argument, in order */
enum { N_ALPHA, N_DIGIT, N_UPPER, N_PUNCT, N_SPACE, N_CHARS, N_TOKENS, N_UI, N_AU, N_DG, N_STOP, N_STOPS,
       N_SENTENCES, N_SENTENCE_LEN, N_NAMES };

static int
add(PyObject *out, PyObject *name)
{
    if (name == NULL)
        return -1;
    int r = PyList_Append(out, name);
    Py_DECREF(name);
    return r;
}

static int
content_block(PyObject *out, PyObject *f, PyObject *stop, PyObject **names, const double *R, Py_ssize_t nR,
              const double *C, Py_ssize_t nC, PyObject *end_stop)
{
    PyObject *v[N_ATTRS] = {NULL};
    int ok = -1;
    for (int k = 0; k < N_ATTRS; k++) {
        v[k] = PyObject_GetAttr(f, ATTRS[k]);
        if (v[k] == NULL)
            goto done;
    }
    PyObject *text = v[A_TEXT];
    if (!PyUnicode_Check(text) || !PyList_Check(v[A_STRIPPED])
            || !PyTuple_Check(v[A_COUNTS]) || PyTuple_GET_SIZE(v[A_COUNTS]) != 3) {
        PyErr_SetString(PyExc_TypeError, "unexpected block facts");
        goto done;
    }
    long alpha = PyLong_AsLong(v[A_ALPHA]), digit = PyLong_AsLong(v[A_DIGITS]), upper = PyLong_AsLong(v[A_UPPER]);
    long words = PyLong_AsLong(v[A_WORDS]), sentences = PyLong_AsLong(v[A_SENTENCES]);
    if (PyErr_Occurred())
        goto done;
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    long space = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        space += PyUnicode_READ(kind, data, i) == ' ';
    double nc = n ? (double)n : 1.0;
    long punct = (long)(n ? n : 1) - alpha - digit - space;
    if (add(out, bucket_name(names[N_ALPHA], R, nR, alpha / nc)) < 0
            || add(out, bucket_name(names[N_DIGIT], R, nR, digit / nc)) < 0
            || add(out, bucket_name(names[N_UPPER], R, nR, upper / nc)) < 0
            || add(out, bucket_name(names[N_PUNCT], R, nR, punct / nc)) < 0
            || add(out, bucket_name(names[N_SPACE], R, nR, space / nc)) < 0
            || add(out, bucket_name(names[N_CHARS], C, nC, (double)n)) < 0
            || add(out, bucket_name(names[N_TOKENS], C, nC, (double)words)) < 0)
        goto done;
    Py_ssize_t nt = PyLong_AsSsize_t(v[A_TOKENS]);
    if (nt == -1 && PyErr_Occurred())
        goto done;
    if (nt) {
        long ui = PyLong_AsLong(PyTuple_GET_ITEM(v[A_COUNTS], 0));
        long au = PyLong_AsLong(PyTuple_GET_ITEM(v[A_COUNTS], 1));
        long dg = PyLong_AsLong(PyTuple_GET_ITEM(v[A_COUNTS], 2));
        if (PyErr_Occurred())
            goto done;
        long n_stop = 0;
        Py_ssize_t ns = PyList_GET_SIZE(v[A_STRIPPED]);
        for (Py_ssize_t k = 0; k < ns; k++) {
            int in = PySet_Contains(stop, PyList_GET_ITEM(v[A_STRIPPED], k));
            if (in < 0)
                goto done;
            n_stop += in;
        }
        if (add(out, bucket_name(names[N_UI], R, nR, (double)ui / (double)nt)) < 0
                || add(out, bucket_name(names[N_AU], R, nR, (double)au / (double)nt)) < 0
                || add(out, bucket_name(names[N_DG], R, nR, (double)dg / (double)nt)) < 0
                || add(out, bucket_name(names[N_STOP], R, nR, (double)n_stop / (double)nt)) < 0
                || add(out, bucket_name(names[N_STOPS], C, nC, (double)n_stop)) < 0)
            goto done;
    }
    if (add(out, bucket_name(names[N_SENTENCES], C, nC, (double)sentences)) < 0
            || add(out, bucket_name(names[N_SENTENCE_LEN], C, nC,
                                    sentences ? (double)words / (double)sentences : 0.0)) < 0)
        goto done;
    /* begin.upper / lower / digit / other, end.stop / colon / other (str methods of one
       character; an empty text ends with "", which is in ":：") */
    int begin = 3, end = 1;
    if (n) {
        Py_UCS4 first = PyUnicode_READ(kind, data, 0), last = PyUnicode_READ(kind, data, n - 1);
        begin = Py_UNICODE_ISUPPER(first) ? 0 : Py_UNICODE_ISLOWER(first) ? 1 : Py_UNICODE_ISDIGIT(first) ? 2 : 3;
        end = PyUnicode_FindChar(end_stop, last, 0, PyUnicode_GET_LENGTH(end_stop), 1) >= 0 ? 0
              : (last == ':' || last == 0xFF1A) ? 1 : 2;
    }
    if (PyList_Append(out, FIXED[begin]) < 0 || PyList_Append(out, FIXED[4 + end]) < 0)
        goto done;
    ok = 0;
done:
    for (int k = 0; k < N_ATTRS; k++)
        Py_XDECREF(v[k]);
    return ok;
}

static PyObject *
content(PyObject *self, PyObject *args)
{
    PyObject *own, *facts, *stop, *names, *ratios, *counts, *end_stop;
    if (!PyArg_ParseTuple(args, "O!O!OO!OOU", &PyList_Type, &own, &PyList_Type, &facts, &stop, &PyTuple_Type,
                          &names, &ratios, &counts, &end_stop))
        return NULL;
    if (PyList_GET_SIZE(own) != PyList_GET_SIZE(facts) || PyTuple_GET_SIZE(names) != N_NAMES) {
        PyErr_SetString(PyExc_ValueError, "own, facts and names do not match");
        return NULL;
    }
    PyObject *lists[N_NAMES];
    for (int k = 0; k < N_NAMES; k++) {
        lists[k] = PyTuple_GET_ITEM(names, k);
        if (!PyList_Check(lists[k])) {
            PyErr_SetString(PyExc_TypeError, "names must be lists");
            return NULL;
        }
    }
    Py_ssize_t nR, nC;
    double *R = doubles(ratios, &nR);
    if (R == NULL)
        return NULL;
    double *C = doubles(counts, &nC);
    if (C == NULL) {
        PyMem_Free(R);
        return NULL;
    }
    for (int k = 0; k < N_NAMES; k++)
        if (PyList_GET_SIZE(lists[k]) != ((k == N_CHARS || k == N_TOKENS || k >= N_STOPS) && k != N_STOP ? nC : nR)) {
            PyErr_SetString(PyExc_ValueError, "a name list does not match its thresholds");
            goto error;
        }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(facts); i++) {
        PyObject *out = PyList_GET_ITEM(own, i);
        if (!PyList_Check(out)) {
            PyErr_SetString(PyExc_TypeError, "own must hold lists");
            goto error;
        }
        if (content_block(out, PyList_GET_ITEM(facts, i), stop, lists, R, nR, C, nC, end_stop) < 0)
            goto error;
    }
    PyMem_Free(R);
    PyMem_Free(C);
    Py_RETURN_NONE;
error:
    PyMem_Free(R);
    PyMem_Free(C);
    return NULL;
}

/* numpy's pairwise summation (DOUBLE_pairwise_sum of numpy/_core/src/umath/loops_utils.h.src)
   of column ``col`` of the rows ``ids[0..n)`` of ``w`` (``cols`` columns) */
static double
pairwise(const double *w, Py_ssize_t cols, const Py_ssize_t *ids, Py_ssize_t n, Py_ssize_t col)
{
    if (n < 8) {
        double res = 0.;
        for (Py_ssize_t i = 0; i < n; i++)
            res += w[ids[i] * cols + col];
        return res;
    }
    if (n <= 128) {
        double r[8], res;
        Py_ssize_t i;
        for (int j = 0; j < 8; j++)
            r[j] = w[ids[j] * cols + col];
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++)
                r[j] += w[ids[i + j] * cols + col];
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++)
            res += w[ids[i] * cols + col];
        return res;
    }
    Py_ssize_t n2 = n / 2;
    n2 -= n2 % 8;
    return pairwise(w, cols, ids, n2, col) + pairwise(w, cols, ids + n2, n - n2, col);
}

/* a C-contiguous 2-D float64 buffer of ``obj`` (writable with ``writable``), or -1 */
static int
matrix(PyObject *obj, Py_buffer *view, int writable)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    if (view->ndim != 2 || view->itemsize != sizeof(double) || view->format == NULL || strcmp(view->format, "d")) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_TypeError, "expected a C-contiguous 2-D float64 array");
        return -1;
    }
    return 0;
}

/* the weight rows of the features of ``feats`` (a list of str) into ``ids``: 0 for a
   feature not in ``index`` or a row out of range; -1 on an error */
static int
rows_of(PyObject *feats, PyObject *index, Py_ssize_t n_rows, Py_ssize_t *ids)
{
    Py_ssize_t n = PyList_GET_SIZE(feats);
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *row = PyDict_GetItemWithError(index, PyList_GET_ITEM(feats, k));
        Py_ssize_t r = 0;
        if (row != NULL) {
            r = PyLong_AsSsize_t(row);
            if (r == -1 && PyErr_Occurred())
                return -1;
            if (r < 0 || r >= n_rows) {
                PyErr_SetString(PyExc_ValueError, "a feature's row is outside the weights");
                return -1;
            }
        } else if (PyErr_Occurred())
            return -1;
        ids[k] = r;
    }
    return 0;
}

static PyObject *
feature_sums(PyObject *self, PyObject *args)
{
    PyObject *own, *index, *weights_obj, *out_obj;
    if (!PyArg_ParseTuple(args, "O!O!OO", &PyList_Type, &own, &PyDict_Type, &index, &weights_obj, &out_obj))
        return NULL;
    Py_buffer wv, ov;
    if (matrix(weights_obj, &wv, 0) < 0)
        return NULL;
    if (matrix(out_obj, &ov, 1) < 0) {
        PyBuffer_Release(&wv);
        return NULL;
    }
    Py_ssize_t m = PyList_GET_SIZE(own), cols = wv.shape[1], n_rows = wv.shape[0];
    const double *w = wv.buf;
    double *o = ov.buf;
    Py_ssize_t *ids = NULL, cap = 0;
    PyObject *result = NULL;
    if (ov.shape[0] != m || ov.shape[1] != cols || n_rows < 1) {
        PyErr_SetString(PyExc_ValueError, "out must have a row per block and the weights' columns");
        goto done;
    }
    for (Py_ssize_t i = 0; i < m; i++) {
        PyObject *feats = PyList_GET_ITEM(own, i);
        if (!PyList_Check(feats)) {
            PyErr_SetString(PyExc_TypeError, "own must hold lists");
            goto done;
        }
        Py_ssize_t n = PyList_GET_SIZE(feats);
        if (n > cap) {
            PyMem_Free(ids);
            cap = 2 * n;
            if ((ids = PyMem_New(Py_ssize_t, cap)) == NULL) {
                PyErr_NoMemory();
                goto done;
            }
        }
        if (rows_of(feats, index, n_rows, ids) < 0)
            goto done;
        for (Py_ssize_t c = 0; c < cols; c++)  /* reduceat: the first row (0), plus the rest */
            o[i * cols + c] = w[c] + pairwise(w, cols, ids, n, c);
    }
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(ids);
    PyBuffer_Release(&wv);
    PyBuffer_Release(&ov);
    return result;
}

/* ``v[0..n)`` divided by its largest entry (left as it is when that is not positive) */
static void
rescale(double *v, Py_ssize_t n)
{
    double mx = 0.;
    for (Py_ssize_t k = 0; k < n; k++)
        if (v[k] > mx)
            mx = v[k];
    if (mx > 0.)
        for (Py_ssize_t k = 0; k < n; k++)
            v[k] /= mx;
}

static PyObject *
forward_backward(PyObject *self, PyObject *args)
{
    PyObject *u_obj, *t_obj, *out_obj;
    if (!PyArg_ParseTuple(args, "OOO", &u_obj, &t_obj, &out_obj))
        return NULL;
    Py_buffer uv, tv, ov;
    if (matrix(u_obj, &uv, 0) < 0)
        return NULL;
    if (matrix(t_obj, &tv, 0) < 0) {
        PyBuffer_Release(&uv);
        return NULL;
    }
    if (matrix(out_obj, &ov, 1) < 0) {
        PyBuffer_Release(&uv);
        PyBuffer_Release(&tv);
        return NULL;
    }
    Py_ssize_t m = uv.shape[0], n = uv.shape[1];
    const double *u = uv.buf, *t = tv.buf;
    double *p = ov.buf, *beta = NULL;
    PyObject *result = NULL;
    if (tv.shape[0] != n || tv.shape[1] != n || ov.shape[0] != m || ov.shape[1] != n) {
        PyErr_SetString(PyExc_ValueError, "u and out must be blocks x labels, t labels x labels");
        goto done;
    }
    if (m == 0 || n == 0) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    if ((beta = PyMem_New(double, m * n)) == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    /* forward, into out: alpha[i][b] = sum_a alpha[i - 1][a] t[a][b] u[i][b] */
    memcpy(p, u, n * sizeof(double));
    rescale(p, n);
    for (Py_ssize_t i = 1; i < m; i++) {
        for (Py_ssize_t b = 0; b < n; b++) {
            double s = 0.;
            for (Py_ssize_t a = 0; a < n; a++)
                s += p[(i - 1) * n + a] * t[a * n + b];
            p[i * n + b] = s * u[i * n + b];
        }
        rescale(p + i * n, n);
    }
    /* backward: beta[i][a] = sum_b t[a][b] u[i + 1][b] beta[i + 1][b] */
    for (Py_ssize_t b = 0; b < n; b++)
        beta[(m - 1) * n + b] = 1.;
    for (Py_ssize_t i = m - 2; i >= 0; i--) {
        for (Py_ssize_t a = 0; a < n; a++) {
            double s = 0.;
            for (Py_ssize_t b = 0; b < n; b++)
                s += t[a * n + b] * u[(i + 1) * n + b] * beta[(i + 1) * n + b];
            beta[i * n + a] = s;
        }
        rescale(beta + i * n, n);
    }
    for (Py_ssize_t i = 0; i < m; i++) {
        double z = 0.;
        for (Py_ssize_t k = 0; k < n; k++)
            z += p[i * n + k] *= beta[i * n + k];
        for (Py_ssize_t k = 0; k < n; k++)
            p[i * n + k] /= z;
    }
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(beta);
    PyBuffer_Release(&uv);
    PyBuffer_Release(&tv);
    PyBuffer_Release(&ov);
    return result;
}

static PyObject *GETPARENT, *GET, *TAG, *CLASS, *ID;

/* ``t + (x,)``: a new reference */
static PyObject *
tuple_plus(PyObject *t, PyObject *x)
{
    Py_ssize_t n = PyTuple_GET_SIZE(t);
    PyObject *out = PyTuple_New(n + 1);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t k = 0; k < n; k++)
        PyTuple_SET_ITEM(out, k, Py_NewRef(PyTuple_GET_ITEM(t, k)));
    PyTuple_SET_ITEM(out, n, Py_NewRef(x));
    return out;
}

/* ``above + marks[:1] + tuple(m for m in marks[1:] if m not in above)``: the
   container features of a chain (a vocabulary word counts once however many
   ancestors carry it; marks[0], container.<tag>, each time); a new reference */
static PyObject *
inherited_marks(PyObject *above, PyObject *marks)
{
    Py_ssize_t na = PyTuple_GET_SIZE(above), nm = PyTuple_GET_SIZE(marks);
    PyObject *out = PyTuple_New(na + nm);
    if (out == NULL)
        return NULL;
    Py_ssize_t n = 0;
    for (Py_ssize_t k = 0; k < na; k++)
        PyTuple_SET_ITEM(out, n++, Py_NewRef(PyTuple_GET_ITEM(above, k)));
    for (Py_ssize_t k = 0; k < nm; k++) {
        PyObject *m = PyTuple_GET_ITEM(marks, k);
        if (k > 0) {
            int in = PySequence_Contains(above, m);
            if (in < 0) {
                Py_DECREF(out);
                return NULL;
            }
            if (in)
                continue;
        }
        PyTuple_SET_ITEM(out, n++, Py_NewRef(m));
    }
    if (n < na + nm && _PyTuple_Resize(&out, n) < 0)
        return NULL;
    return out;
}

/* the context of ``el`` from its parent's ``parent`` (``_child_context`` in
   features.py): a new reference */
static PyObject *
child_context(PyObject *parent, PyObject *el, PyObject *marks_fn, PyObject *td_tags, PyObject *div_tags)
{
    if (!PyTuple_Check(parent) || PyTuple_GET_SIZE(parent) != 7) {
        PyErr_SetString(PyExc_TypeError, "a context is a tuple of 7");
        return NULL;
    }
    PyObject *chain = PyTuple_GET_ITEM(parent, 0), *names = PyTuple_GET_ITEM(parent, 1);
    PyObject *above = PyTuple_GET_ITEM(parent, 2), *div = PyTuple_GET_ITEM(parent, 5);
    PyObject *td = PyTuple_GET_ITEM(parent, 6);
    PyObject *tag_obj = NULL, *cls = NULL, *id = NULL, *r = NULL, *out = NULL;
    if ((tag_obj = PyObject_GetAttr(el, TAG)) == NULL || (cls = PyObject_CallMethodOneArg(el, GET, CLASS)) == NULL
            || (id = PyObject_CallMethodOneArg(el, GET, ID)) == NULL)
        goto done;
    r = PyObject_CallFunctionObjArgs(marks_fn, tag_obj, cls, id, NULL);
    if (r == NULL)
        goto done;
    if (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 3 || !PyTuple_Check(PyTuple_GET_ITEM(r, 1))
            || !PyTuple_Check(chain) || !PyTuple_Check(names) || !PyTuple_Check(above)) {
        PyErr_SetString(PyExc_TypeError, "unexpected marks or context");
        goto done;
    }
    PyObject *tag = PyTuple_GET_ITEM(r, 0);
    int is_td = PySet_Contains(td_tags, tag), is_div = PySet_Contains(div_tags, tag);
    if (is_td < 0 || is_div < 0)
        goto done;
    out = PyTuple_New(7);
    if (out == NULL)
        goto done;
    PyTuple_SET_ITEM(out, 0, tuple_plus(chain, el));
    PyTuple_SET_ITEM(out, 1, tuple_plus(names, tag));
    PyTuple_SET_ITEM(out, 2, inherited_marks(above, PyTuple_GET_ITEM(r, 1)));
    PyTuple_SET_ITEM(out, 3, Py_NewRef(above));
    PyTuple_SET_ITEM(out, 4, Py_NewRef(PyTuple_GET_ITEM(r, 2)));
    PyTuple_SET_ITEM(out, 5, Py_NewRef(is_div ? el : div));
    PyTuple_SET_ITEM(out, 6, Py_NewRef(is_td ? el : td));
    for (int k = 0; k < 3; k++)
        if (PyTuple_GET_ITEM(out, k) == NULL) {
            Py_CLEAR(out);
            break;
        }
done:
    Py_XDECREF(tag_obj);
    Py_XDECREF(cls);
    Py_XDECREF(id);
    Py_XDECREF(r);
    return out;
}

/* the context of ``el`` (a borrowed reference, held by ``cache``), computed with those
   of its ancestors that ``cache`` does not hold yet (``_python_contexts`` in features.py) */
static PyObject *
element_context(PyObject *el, PyObject *body, PyObject *cache, PyObject *marks_fn, PyObject *td_tags,
                PyObject *div_tags, PyObject *empty)
{
    PyObject *c = PyDict_GetItemWithError(cache, el);
    if (c != NULL || PyErr_Occurred())
        return c;
    PyObject *below = PyList_New(0);  /* el and its ancestors without a context yet, upwards */
    if (below == NULL)
        return NULL;
    Py_INCREF(el);
    while (c == NULL) {
        PyObject *parent = PyObject_CallMethodNoArgs(el, GETPARENT);
        if (parent == NULL)
            goto error;
        if (parent == Py_None || el == body) {
            Py_DECREF(parent);
            if (PyDict_SetItem(cache, el, empty) < 0)
                goto error;
            c = empty;
            break;
        }
        if (PyList_Append(below, el) < 0) {
            Py_DECREF(parent);
            goto error;
        }
        Py_SETREF(el, parent);
        c = PyDict_GetItemWithError(cache, el);
        if (c == NULL && PyErr_Occurred())
            goto error;
    }
    Py_DECREF(el);
    for (Py_ssize_t k = PyList_GET_SIZE(below) - 1; k >= 0; k--) {
        PyObject *child = PyList_GET_ITEM(below, k);
        PyObject *made = child_context(c, child, marks_fn, td_tags, div_tags);
        if (made == NULL || PyDict_SetItem(cache, child, made) < 0) {
            Py_XDECREF(made);
            Py_DECREF(below);
            return NULL;
        }
        Py_DECREF(made);  /* the cache holds it */
        c = made;
    }
    Py_DECREF(below);
    return c;
error:
    Py_DECREF(el);
    Py_DECREF(below);
    return NULL;
}

static PyObject *
contexts(PyObject *self, PyObject *args)
{
    PyObject *sources, *body, *marks_fn, *td_tags, *div_tags, *empty;
    if (!PyArg_ParseTuple(args, "O!OOO!O!O!", &PyList_Type, &sources, &body, &marks_fn, &PyFrozenSet_Type, &td_tags,
                          &PyFrozenSet_Type, &div_tags, &PyTuple_Type, &empty))
        return NULL;
    PyObject *cache = PyDict_New();
    if (cache == NULL)
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(sources);
    PyObject *out = PyList_New(n);
    if (out == NULL)
        goto error;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *el = PyList_GET_ITEM(sources, i);
        PyObject *c = el == Py_None ? empty
                      : element_context(el, body, cache, marks_fn, td_tags, div_tags, empty);
        if (c == NULL)
            goto error;
        PyList_SET_ITEM(out, i, Py_NewRef(c));
    }
    Py_DECREF(cache);
    return out;
error:
    Py_XDECREF(out);
    Py_DECREF(cache);
    return NULL;
}

/* ASCII character classes of Python's re for str patterns: \w, \d, \s */
static int
re_word(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int
re_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static int
re_space(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

static int
re_alpha(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* the length of the run of ASCII digits at b[i] */
static Py_ssize_t
digit_run(const unsigned char *b, Py_ssize_t n, Py_ssize_t i)
{
    Py_ssize_t k = i;
    while (k < n && re_digit(b[k]))
        k++;
    return k - i;
}

/* is b[i] the end of a word (\b after a word character, or the end)? */
static int
word_ends(const unsigned char *b, Py_ssize_t n, Py_ssize_t i)
{
    return i >= n || !re_word(b[i]);
}

/* does a month's abbreviation (jan ... dec, any case) start at b[i]? */
static int
month_at(const unsigned char *b, Py_ssize_t n, Py_ssize_t i)
{
    static const char *months[12] = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov",
                                     "dec"};
    if (i + 3 > n)
        return 0;
    char low[3];
    for (int k = 0; k < 3; k++)
        low[k] = (char)(b[i + k] >= 'A' && b[i + k] <= 'Z' ? b[i + k] + 32 : b[i + k]);
    for (int m = 0; m < 12; m++)
        if (low[0] == months[m][0] && low[1] == months[m][1] && low[2] == months[m][2])
            return 1;
    return 0;
}

/* _DATE of features.py matches the ASCII text b[0:n] somewhere (its three alternatives,
   the backtracking of each worked out: a digit run of a bounded length must be the whole
   run, as the character after it must be a separator, white space or a word's end) */
static int
ascii_date(const unsigned char *b, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        if (i > 0 && re_word(b[i - 1]))
            continue;  /* no \b before b[i] */
        if (re_digit(b[i])) {
            Py_ssize_t r = digit_run(b, n, i), j;
            /* \d{1,4}[./-]\d{1,2}[./-]\d{1,4}\b */
            if (r <= 4 && i + r < n && (b[i + r] == '.' || b[i + r] == '/' || b[i + r] == '-')) {
                j = i + r + 1;
                Py_ssize_t r2 = digit_run(b, n, j);
                if (r2 >= 1 && r2 <= 2 && j + r2 < n
                        && (b[j + r2] == '.' || b[j + r2] == '/' || b[j + r2] == '-')) {
                    j += r2 + 1;
                    Py_ssize_t r3 = digit_run(b, n, j);
                    if (r3 >= 1 && r3 <= 4 && word_ends(b, n, j + r3))
                        return 1;
                }
            }
            /* \d{1,2}\s+(?:jan|...|dec) */
            if (r <= 2) {
                j = i + r;
                if (j < n && re_space(b[j])) {
                    while (j < n && re_space(b[j]))
                        j++;
                    if (month_at(b, n, j))
                        return 1;
                }
            }
        }
        else if (month_at(b, n, i)) {
            /* (?:jan|...|dec)[a-z]*\.?\s+\d{1,2}\b */
            Py_ssize_t j = i + 3;
            while (j < n && re_alpha(b[j]))
                j++;
            if (j < n && b[j] == '.')
                j++;
            if (j < n && re_space(b[j])) {
                while (j < n && re_space(b[j]))
                    j++;
                Py_ssize_t r = digit_run(b, n, j);
                if (r >= 1 && r <= 2 && word_ends(b, n, j + r))
                    return 1;
            }
        }
    }
    return 0;
}

/* _TIME of features.py (\b\d{1,2}:\d{2}\b) matches the ASCII text b[0:n] somewhere */
static int
ascii_time(const unsigned char *b, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!re_digit(b[i]) || (i > 0 && re_word(b[i - 1])))
            continue;
        Py_ssize_t r = digit_run(b, n, i);
        if (r <= 2 && i + r < n && b[i + r] == ':' && digit_run(b, n, i + r + 1) == 2
                && word_ends(b, n, i + r + 3))
            return 1;
        i += r - 1;  /* no \b inside the run */
    }
    return 0;
}

static PyObject *
ascii_dates(PyObject *self, PyObject *args)
{
    PyObject *text;
    if (!PyArg_ParseTuple(args, "U", &text))
        return NULL;
    if (!PyUnicode_IS_ASCII(text)) {
        PyErr_SetString(PyExc_ValueError, "ascii_dates reads ASCII texts only");
        return NULL;
    }
    const unsigned char *b = PyUnicode_1BYTE_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    return Py_BuildValue("(OO)", ascii_date(b, n) ? Py_True : Py_False, ascii_time(b, n) ? Py_True : Py_False);
}

static PyMethodDef methods[] = {
    {"text_facts", text_facts, METH_VARARGS,
     "text_facts(raw, strip) -> (text, lower, tokens, stripped, alpha, digits, upper, alnum, "
     "upper_initial, all_upper, with_digit): see kitten/boilerplate/features.py"},
    {"ascii_dates", ascii_dates, METH_VARARGS,
     "ascii_dates(text) -> (date, time): does _DATE, does _TIME of kitten/boilerplate/features.py match "
     "the ASCII text somewhere"},
    {"block_facts", block_facts, METH_VARARGS,
     "block_facts(texts, sources, links, strip, cls) -> list: each block's _Facts, "
     "see _block_facts in kitten/boilerplate/features.py"},
    {"content", content, METH_VARARGS,
     "content(own, facts, stop, names, ratios, counts, end_stop): the content family up to end.*, "
     "see kitten/boilerplate/features.py"},
    {"feature_sums", feature_sums, METH_VARARGS,
     "feature_sums(own, index, weights, out): each block's sum of its features' weight rows, "
     "as numpy's add.reduceat adds them, see Scorer.sums in kitten/boilerplate/crf.py"},
    {"forward_backward", forward_backward, METH_VARARGS,
     "forward_backward(u, t, out): each block's label marginals from its state and the transition "
     "potentials, see Scorer.marginals in kitten/boilerplate/crf.py"},
    {"contexts", contexts, METH_VARARGS,
     "contexts(sources, body, marks, td_tags, div_tags, empty) -> list: each source element's context, "
     "see _python_contexts in kitten/boilerplate/features.py"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_facts", "The boilerplate gate's per-block text facts in C.", -1, methods,
};

PyMODINIT_FUNC
PyInit__facts(void)
{
    if ((GETPARENT = PyUnicode_InternFromString("getparent")) == NULL || (GET = PyUnicode_InternFromString("get")) == NULL
            || (TAG = PyUnicode_InternFromString("tag")) == NULL || (CLASS = PyUnicode_InternFromString("class")) == NULL
            || (ID = PyUnicode_InternFromString("id")) == NULL
            || (LOWER = PyUnicode_InternFromString("lower")) == NULL)
        return NULL;
    for (int k = 0; k < N_ATTRS; k++)
        if ((ATTRS[k] = PyUnicode_InternFromString(ATTR_NAMES[k])) == NULL)
            return NULL;
    const char *fixed[7] = {"begin.upper", "begin.lower", "begin.digit", "begin.other", "end.stop", "end.colon",
                            "end.other"};
    for (int k = 0; k < 7; k++)
        if ((FIXED[k] = PyUnicode_InternFromString(fixed[k])) == NULL)
            return NULL;
    return PyModule_Create(&module);
}
