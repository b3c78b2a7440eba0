/* The per-block text facts of the boilerplate gate's features, in C.
 *
 * text_facts(raw) -> (text, lower, tokens, alpha, digits, upper, alnum, upper_initial,
 *                     all_upper, with_digit, words, sentences)
 *
 * The same values as kitten/boilerplate/features.py's Python fallback
 * (``_python_text_facts``), operation for operation:
 *   tokens   len(raw.split())
 *   text     " ".join(raw.split()) (made in one pass, without the tokens' strings)
 *   lower    text.lower()
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
 * block_facts(texts, sources, links, cls) -> list: the ``_Facts`` (``cls``, a named
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
 * Stop words are counted without a string per token: a block's stripped tokens are
 * [t.strip(strip) for t in lower.split()] (``strip``: features.py's ``_STRIP``; empty ones
 * kept), read in place in ``lower`` (:c:func:`lookup_kind`) and looked up by their
 * characters in a word table (:c:type:`WordTable`, open addressing over the words' UTF-8
 * bytes; the hash is of the code points, so a token of any string kind finds its word).
 *
 * word_table(words) -> capsule: the word table of the dict ``words`` (str -> int in
 * 0 .. 2**31-1), made once per list (features.py caches them): the page's stop-word
 * list (value 0 for each word) for ``content``, ``kitten.language.stop_word_index``'s
 * words -> groups for ``stop_groups``.
 *
 * stop_groups(facts, table, strip, limit) -> (counts, n): the first ``limit`` stripped
 * tokens of the blocks' ``lower`` (``_Facts``; a block's tokens cut at the limit): ``n``,
 * how many there are, and ``counts``, how many have each value of ``table`` (a dict
 * value -> count, the values in the order their first token comes; tokens not in the
 * table not counted): ``Counter(map(group_of.get, sample))`` less None, as
 * ``kitten.language.page_stop_words`` counts its sample, for ``stop_words_of_counts``.
 *
 * content(own, facts, stop, strip, names, ratios, counts, end_stop): the ``content``
 * family's features up to ``end.*`` for every block of a page whose stop-word list is
 * known (``stop``: its word table; ``_content_counts`` in features.py, the Python loop it
 * replaces, operation for operation): appended to each block's list of ``own``.
 * ``names``: the tuple of name lists of CONTENT_NAMES' prefixes, in order; ``ratios``,
 * ``counts``: the thresholds with -inf first (``_below``); a value's name is
 * names[bisect_right(below, v) - 1].
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

/* the characters stripped from the ends of tokens (features.py's ``_STRIP``): bit c of
   low[c >> 6] set for each one c < 256, the others in ``high`` (``n_high`` of them; -1:
   more than fit, looked up in the string ``chars`` itself) */
typedef struct {
    uint64_t low[4];
    Py_UCS4 high[8];
    int n_high;
    PyObject *chars;  /* borrowed */
} Strip;

static void
strip_of(PyObject *chars, Strip *st)
{
    memset(st, 0, sizeof(Strip));
    st->chars = chars;
    int kind = PyUnicode_KIND(chars);
    const void *data = PyUnicode_DATA(chars);
    for (Py_ssize_t i = 0; i < PyUnicode_GET_LENGTH(chars); i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (ch < 256)
            st->low[ch >> 6] |= (uint64_t)1 << (ch & 63);
        else if (st->n_high >= 0 && st->n_high < 8)
            st->high[st->n_high++] = ch;
        else
            st->n_high = -1;
    }
}

/* is ``ch`` one of the characters of ``st``? */
static inline int
is_stripped(const Strip *st, Py_UCS4 ch)
{
    if (ch < 256)
        return (int)((st->low[ch >> 6] >> (ch & 63)) & 1);
    if (st->n_high < 0)
        return PyUnicode_FindChar(st->chars, ch, 0, PyUnicode_GET_LENGTH(st->chars), 1) >= 0;
    for (int k = 0; k < st->n_high; k++)
        if (st->high[k] == ch)
            return 1;
    return 0;
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

/* Word tables: a set of words (each with a value, 0 .. 2^31-1) looked up by the
   characters of a token, without making the token's string. Open addressing with linear
   probing over twice as many slots as words (a power of two); a slot holds the upper half
   of the word's 64-bit hash (``tag``) and where its entry starts in ``blob`` (+1; 0: an
   empty slot); an entry is the value (int32), the length of the word in UTF-8 (uint32),
   the UTF-8 bytes (lone surrogates in 3 bytes, as "surrogatepass"), padded to 4 bytes.
   The hash is of the code points, so a word matches a token of any string kind. */
typedef struct {
    uint32_t tag, at;
} WordSlot;

typedef struct {
    size_t mask;  /* slots - 1 */
    WordSlot *slots;
    unsigned char *blob;
    Py_ssize_t n_values;  /* the largest value + 1 */
} WordTable;

static const char WORD_TABLE[] = "kitten.boilerplate._facts.WordTable";

/* the UTF-8 bytes of ``c`` into ``b``, their number */
static inline int
utf8_of(Py_UCS4 c, unsigned char *b)
{
    if (c < 0x80) {
        b[0] = (unsigned char)c;
        return 1;
    }
    if (c < 0x800) {
        b[0] = (unsigned char)(0xC0 | (c >> 6));
        b[1] = (unsigned char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        b[0] = (unsigned char)(0xE0 | (c >> 12));
        b[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
        b[2] = (unsigned char)(0x80 | (c & 0x3F));
        return 3;
    }
    b[0] = (unsigned char)(0xF0 | (c >> 18));
    b[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
    b[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
    b[3] = (unsigned char)(0x80 | (c & 0x3F));
    return 4;
}

/* the 64-bit hash of a word: FNV-1a over its code points (FNV_STEP from FNV_START),
   then murmur3's finalizer (hash_end) so that the low bits, the slot, are mixed */
#define FNV_START 0xcbf29ce484222325ULL
#define FNV_STEP(h, c) (((h) ^ (uint64_t)(c)) * 0x100000001b3ULL)

static inline uint64_t
hash_end(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

/* is the entry ``e`` (of a word table's blob) the word of the characters [i, j)? */
static inline int
same_word(const unsigned char *e, int kind, const void *data, Py_ssize_t i, Py_ssize_t j)
{
    uint32_t len, p = 0;
    memcpy(&len, e + 4, 4);
    const unsigned char *key = e + 8;
    for (; i < j; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c < 0x80) {  /* one byte */
            if (p == len || key[p] != c)
                return 0;
            p++;
            continue;
        }
        unsigned char b[4];
        uint32_t nb = (uint32_t)utf8_of(c, b);
        if (len - p < nb)
            return 0;
        for (uint32_t q = 0; q < nb; q++)
            if (key[p + q] != b[q])
                return 0;
        p += nb;
    }
    return p == len;
}

/* the value of the word of the characters [i, j) of ``data`` of ``kind`` (``h``: its
   hash) in ``t``, -1 when it is not there */
static inline int32_t
word_value(const WordTable *t, uint64_t h, int kind, const void *data, Py_ssize_t i, Py_ssize_t j)
{
    uint32_t tag = (uint32_t)(h >> 32);
    for (size_t s = (size_t)h & t->mask;; s = (s + 1) & t->mask) {
        uint32_t at = t->slots[s].at;
        if (at == 0)
            return -1;
        if (t->slots[s].tag == tag && same_word(t->blob + at - 1, kind, data, i, j)) {
            int32_t v;
            memcpy(&v, t->blob + at - 1, 4);
            return v;
        }
    }
}

/* the stripped tokens of a string's ``data`` of ``kind`` and length ``n`` (at most
   ``limit`` of them) looked up in ``t``: how many are in it (``hits``) and, with
   ``counts``, how many have each value (``order``: the values in the order they come
   first, ``n_order`` of them); returns the tokens read. The tokens are those of
   [t.strip(chars) for t in s.split()] (``st``: the characters of ``chars``), each read
   once: the hash of its characters from the first one not stripped is kept at each
   character not stripped, so that the last one kept is that of the stripped token.
   Inlined with ``kind`` a constant (:c:func:`lookup_tokens`), so that each string kind
   gets its own loop without a test of the kind per character. */
static inline __attribute__((always_inline)) Py_ssize_t
lookup_kind(const int kind, const void *data, Py_ssize_t n, const Strip *st, const WordTable *t, Py_ssize_t limit,
            Py_ssize_t *hits, Py_ssize_t *counts, int32_t *order, Py_ssize_t *n_order)
{
    Py_ssize_t k = 0, read = 0;
    while (read < limit) {
        while (k < n && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, k)))
            k++;
        if (k == n)
            break;
        Py_UCS4 c;
        while (k < n && !Py_UNICODE_ISSPACE(c = PyUnicode_READ(kind, data, k)) && is_stripped(st, c))
            k++;  /* stripped from the start */
        Py_ssize_t a = k, b = k;
        uint64_t h = FNV_START, kept = FNV_START;
        while (k < n && !Py_UNICODE_ISSPACE(c = PyUnicode_READ(kind, data, k))) {
            h = FNV_STEP(h, c);
            k++;
            if (!is_stripped(st, c)) {  /* the token ends here unless a character kept follows */
                kept = h;
                b = k;
            }
        }
        read++;
        int32_t v = word_value(t, hash_end(kept), kind, data, a, b);
        if (v < 0)
            continue;
        *hits += 1;
        if (counts != NULL && counts[v]++ == 0)
            order[(*n_order)++] = v;
    }
    return read;
}

/* lookup_kind for the kind of the string ``s`` */
static Py_ssize_t
lookup_tokens(PyObject *s, const Strip *st, const WordTable *t, Py_ssize_t limit, Py_ssize_t *hits,
              Py_ssize_t *counts, int32_t *order, Py_ssize_t *n_order)
{
    const void *data = PyUnicode_DATA(s);
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    switch (PyUnicode_KIND(s)) {
    case PyUnicode_1BYTE_KIND:
        return lookup_kind(PyUnicode_1BYTE_KIND, data, n, st, t, limit, hits, counts, order, n_order);
    case PyUnicode_2BYTE_KIND:
        return lookup_kind(PyUnicode_2BYTE_KIND, data, n, st, t, limit, hits, counts, order, n_order);
    default:
        return lookup_kind(PyUnicode_4BYTE_KIND, data, n, st, t, limit, hits, counts, order, n_order);
    }
}

static void
free_word_table(PyObject *capsule)
{
    WordTable *t = PyCapsule_GetPointer(capsule, WORD_TABLE);
    if (t != NULL) {
        PyMem_Free(t->slots);
        PyMem_Free(t->blob);
        PyMem_Free(t);
    }
}

/* the bytes of a word's entry in a blob (value, length, UTF-8 padded to 4) */
static size_t
entry_size(PyObject *word)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(word);
    int kind = PyUnicode_KIND(word);
    const void *data = PyUnicode_DATA(word);
    size_t bytes = 0;
    unsigned char b[4];
    for (Py_ssize_t i = 0; i < n; i++)
        bytes += (size_t)utf8_of(PyUnicode_READ(kind, data, i), b);
    return 8 + ((bytes + 3) & ~(size_t)3);
}

/* word_table(words) -> capsule: the word table of the dict ``words`` (str -> int) */
static PyObject *
word_table(PyObject *self, PyObject *args)
{
    PyObject *words, *key, *value;
    if (!PyArg_ParseTuple(args, "O!", &PyDict_Type, &words))
        return NULL;
    Py_ssize_t n = PyDict_GET_SIZE(words), pos = 0;
    size_t slots = 8, blob_size = 0;
    while (slots < 2 * (size_t)n)
        slots *= 2;
    long largest = -1;
    while (PyDict_Next(words, &pos, &key, &value)) {
        long v = PyLong_Check(value) ? PyLong_AsLong(value) : -1;
        if (!PyUnicode_Check(key) || v < 0 || v > INT32_MAX) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "word_table takes a dict of str -> int in 0 .. 2**31-1");
            return NULL;
        }
        if (v > largest)
            largest = v;
        blob_size += entry_size(key);
    }
    if (blob_size >= UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "too many words for a word table");
        return NULL;
    }
    WordTable *t = PyMem_Calloc(1, sizeof(WordTable));
    if (t == NULL)
        return PyErr_NoMemory();
    t->mask = slots - 1;
    t->n_values = largest + 1;
    t->slots = PyMem_Calloc(slots, sizeof(WordSlot));
    t->blob = PyMem_Calloc(blob_size ? blob_size : 1, 1);
    if (t->slots == NULL || t->blob == NULL) {
        PyMem_Free(t->slots);
        PyMem_Free(t->blob);
        PyMem_Free(t);
        return PyErr_NoMemory();
    }
    size_t off = 0;
    pos = 0;
    while (PyDict_Next(words, &pos, &key, &value)) {
        Py_ssize_t len = PyUnicode_GET_LENGTH(key);
        int kind = PyUnicode_KIND(key);
        const void *data = PyUnicode_DATA(key);
        int32_t v = (int32_t)PyLong_AsLong(value);
        uint32_t bytes = 0;
        for (Py_ssize_t i = 0; i < len; i++)
            bytes += (uint32_t)utf8_of(PyUnicode_READ(kind, data, i), t->blob + off + 8 + bytes);
        memcpy(t->blob + off, &v, 4);
        memcpy(t->blob + off + 4, &bytes, 4);
        uint64_t h = FNV_START;
        for (Py_ssize_t i = 0; i < len; i++)
            h = FNV_STEP(h, PyUnicode_READ(kind, data, i));
        h = hash_end(h);
        size_t s = (size_t)h & t->mask;
        while (t->slots[s].at != 0)
            s = (s + 1) & t->mask;
        t->slots[s].tag = (uint32_t)(h >> 32);
        t->slots[s].at = (uint32_t)off + 1;
        off += 8 + ((bytes + 3) & ~(uint32_t)3);
    }
    PyObject *capsule = PyCapsule_New(t, WORD_TABLE, free_word_table);
    if (capsule == NULL) {
        PyMem_Free(t->slots);
        PyMem_Free(t->blob);
        PyMem_Free(t);
    }
    return capsule;
}

static PyObject *LOWER;  /* "lower", interned (the method, and the attribute of _Facts) */

/* stop_groups(facts, table, strip, limit) -> (counts, n): the first ``limit`` tokens of
   the blocks' ``lower`` texts (a block's tokens cut at the limit), each stripped of the
   characters of ``strip``: how many (n), and how many have each value of the word table
   ``table`` (a dict value -> count, the values in the order their first token comes) */
static PyObject *
stop_groups(PyObject *self, PyObject *args)
{
    PyObject *facts, *capsule, *chars;
    Py_ssize_t limit;
    if (!PyArg_ParseTuple(args, "O!OUn", &PyList_Type, &facts, &capsule, &chars, &limit))
        return NULL;
    WordTable *t = PyCapsule_GetPointer(capsule, WORD_TABLE);
    if (t == NULL)
        return NULL;
    Py_ssize_t *counts = PyMem_Calloc(t->n_values ? t->n_values : 1, sizeof(Py_ssize_t));
    int32_t *order = PyMem_Calloc(t->n_values ? t->n_values : 1, sizeof(int32_t));
    PyObject *found = NULL, *out = NULL;
    if (counts == NULL || order == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Strip st;
    strip_of(chars, &st);
    Py_ssize_t seen = 0, n_order = 0, hits = 0;
    for (Py_ssize_t b = 0; b < PyList_GET_SIZE(facts) && seen < limit; b++) {
        PyObject *lower = PyObject_GetAttr(PyList_GET_ITEM(facts, b), LOWER);
        if (lower == NULL)
            goto done;
        if (!PyUnicode_Check(lower)) {
            Py_DECREF(lower);
            PyErr_SetString(PyExc_TypeError, "a block's lower is not a str");
            goto done;
        }
        seen += lookup_tokens(lower, &st, t, limit - seen, &hits, counts, order, &n_order);
        Py_DECREF(lower);
    }
    found = PyDict_New();
    if (found == NULL)
        goto done;
    for (Py_ssize_t k = 0; k < n_order; k++) {
        PyObject *key = PyLong_FromLong(order[k]), *count = PyLong_FromSsize_t(counts[order[k]]);
        int r = key && count ? PyDict_SetItem(found, key, count) : -1;
        Py_XDECREF(key);
        Py_XDECREF(count);
        if (r < 0)
            goto done;
    }
    out = Py_BuildValue("(On)", found, seen);
done:
    Py_XDECREF(found);
    PyMem_Free(counts);
    PyMem_Free(order);
    return out;
}

/* the facts of ``raw``, as text_facts returns them, into ``out`` (12 new references, in
   text_facts' order) */
static int
facts_of(PyObject *raw, PyObject **out)
{
    PyObject *text = NULL, *lower = NULL;
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
    Py_ssize_t ints[12] = {0, 0, n_toks, alpha, digits, upper, alnum, upper_initial, all_upper, with_digit,
                           words, sentences};
    for (int k = 2; k < 12; k++) {
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
    return -1;
}

static PyObject *
text_facts(PyObject *self, PyObject *args)
{
    PyObject *raw, *v[12];
    if (!PyArg_ParseTuple(args, "U", &raw))
        return NULL;
    if (facts_of(raw, v) < 0)
        return NULL;
    PyObject *out = PyTuple_New(12);
    if (out == NULL) {
        for (int k = 0; k < 12; k++)
            Py_DECREF(v[k]);
        return NULL;
    }
    for (int k = 0; k < 12; k++)
        PyTuple_SET_ITEM(out, k, v[k]);
    return out;
}

/* the positions in text_facts' tuple of the fields of features.py's _Facts, in its order
   (-1: link_letters, -2: token_counts, made here) */
static const int FACTS_ORDER[11] = {0, 1, 2, 10, -1, 6, 3, 4, 5, -2, 11};

static PyObject *
block_facts(PyObject *self, PyObject *args)
{
    PyObject *texts, *sources, *links, *cls;
    if (!PyArg_ParseTuple(args, "O!O!O!O!", &PyList_Type, &texts, &PyList_Type, &sources, &PyDict_Type, &links,
                          &PyType_Type, &cls))
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
        PyObject *raw = PyList_GET_ITEM(texts, i), *v[12];
        if (!PyUnicode_Check(raw)) {
            PyErr_SetString(PyExc_TypeError, "a block's text is not a str");
            goto error;
        }
        if (facts_of(raw, v) < 0)
            goto error;
        PyObject *f = ((PyTypeObject *)cls)->tp_alloc((PyTypeObject *)cls, 11);
        PyObject *counts = PyTuple_Pack(3, v[7], v[8], v[9]);
        PyObject *found = PyDict_GetItemWithError(links, PyList_GET_ITEM(sources, i));  /* borrowed */
        Py_ssize_t link = found == NULL ? 0 : PyLong_AsSsize_t(found);
        Py_ssize_t letters = PyLong_AsSsize_t(v[6]);
        PyObject *ll = PyErr_Occurred() ? NULL : PyLong_FromSsize_t(link < letters ? link : letters);
        if (f == NULL || counts == NULL || ll == NULL) {
            Py_XDECREF(f);
            Py_XDECREF(counts);
            Py_XDECREF(ll);
            for (int k = 0; k < 12; k++)
                Py_DECREF(v[k]);
            goto error;
        }
        for (int k = 0; k < 11; k++) {
            int at = FACTS_ORDER[k];
            PyTuple_SET_ITEM(f, k, at == -1 ? ll : at == -2 ? counts : Py_NewRef(v[at]));
        }
        for (int k = 0; k < 12; k++)
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
enum { A_TEXT, A_ALPHA, A_DIGITS, A_UPPER, A_WORDS, A_TOKENS, A_COUNTS, A_LOWER, A_SENTENCES, N_ATTRS };
static const char *ATTR_NAMES[N_ATTRS] = {"text", "alpha", "digits", "upper", "words", "tokens", "token_counts",
                                          "lower", "sentences"};
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
content_block(PyObject *out, PyObject *f, const WordTable *stop, const Strip *st,
              PyObject **names, const double *R, Py_ssize_t nR, const double *C, Py_ssize_t nC, PyObject *end_stop)
{
    PyObject *v[N_ATTRS] = {NULL};
    int ok = -1;
    for (int k = 0; k < N_ATTRS; k++) {
        v[k] = PyObject_GetAttr(f, ATTRS[k]);
        if (v[k] == NULL)
            goto done;
    }
    PyObject *text = v[A_TEXT];
    if (!PyUnicode_Check(text) || !PyUnicode_Check(v[A_LOWER])
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
        Py_ssize_t n_stop = 0;  /* the tokens of lower, stripped, in the stop-word table */
        lookup_tokens(v[A_LOWER], st, stop, PY_SSIZE_T_MAX, &n_stop, NULL, NULL, NULL);
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
    PyObject *own, *facts, *capsule, *chars, *names, *ratios, *counts, *end_stop;
    if (!PyArg_ParseTuple(args, "O!O!OUO!OOU", &PyList_Type, &own, &PyList_Type, &facts, &capsule, &chars,
                          &PyTuple_Type, &names, &ratios, &counts, &end_stop))
        return NULL;
    const WordTable *stop = PyCapsule_GetPointer(capsule, WORD_TABLE);
    if (stop == NULL)
        return NULL;
    Strip st;
    strip_of(chars, &st);
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
        if (content_block(out, PyList_GET_ITEM(facts, i), stop, &st, lists, R, nR, C, nC, end_stop) < 0)
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
     "text_facts(raw) -> (text, lower, tokens, alpha, digits, upper, alnum, upper_initial, all_upper, "
     "with_digit, words, sentences): see kitten/boilerplate/features.py"},
    {"ascii_dates", ascii_dates, METH_VARARGS,
     "ascii_dates(text) -> (date, time): does _DATE, does _TIME of kitten/boilerplate/features.py match "
     "the ASCII text somewhere"},
    {"block_facts", block_facts, METH_VARARGS,
     "block_facts(texts, sources, links, cls) -> list: each block's _Facts, "
     "see _block_facts in kitten/boilerplate/features.py"},
    {"content", content, METH_VARARGS,
     "content(own, facts, stop, strip, names, ratios, counts, end_stop): the content family up to end.*, "
     "see kitten/boilerplate/features.py"},
    {"word_table", word_table, METH_VARARGS,
     "word_table(words) -> capsule: the word table of a dict str -> int, for stop_groups and content"},
    {"stop_groups", stop_groups, METH_VARARGS,
     "stop_groups(facts, table, strip, limit) -> (counts, n): the first limit stripped tokens of the blocks' "
     "lower texts, how many, and how many have each value of the word table (in the order values first come)"},
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
