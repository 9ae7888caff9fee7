# source: https://github.com/ccsasuke/umwe/issues/5
# style: nlp
# cause: numpy_on_grad_tensor
# line: 122
# expert: Evaluator.sent_translation passes the target embedding matrix itself (self.embs[tgt_lang].weight, an nn.Embedding weight that requires grad) into get_sent_translation_accuracy, which turns it into numpy with emb2.cpu().numpy(); since PyTorch 0.4 a tensor that requires grad cannot be converted. The maintainer's answer (committed as 5d0beb8, "Fix a PyTorch 0.4 incompatibility") is to detach before converting: emb1 = emb1.cpu().detach().numpy() and emb2 = emb2.cpu().detach().numpy().
import types
from logging import getLogger, basicConfig, INFO

import numpy as np
import torch
from torch import nn

torch.manual_seed(0)
basicConfig(level=INFO, format="%(levelname)s - %(message)s")
logger = getLogger()


# ---- src/dictionary.py ----
class Dictionary(object):

    def __init__(self, id2word, word2id, lang):
        assert len(id2word) == len(word2id)
        self.id2word = id2word
        self.word2id = word2id
        self.lang = lang

    def __len__(self):
        return len(self.id2word)


# ---- src/utils.py (the helpers used here) ----
def bow_idf(sentences, word_vec, idf_dict=None):
    """
    Get sentence representations using weigthed IDF bag-of-words.
    """
    embeddings = []
    for sent in sentences:
        sent = set(sent)
        list_words = [w for w in sent if w in word_vec and w in idf_dict]
        if len(list_words) > 0:
            sentvec = [word_vec[w] * idf_dict[w] for w in list_words]
            sentvec = sentvec / np.sum([idf_dict[w] for w in list_words])
        else:
            sentvec = [word_vec[list(word_vec.keys())[0]]]
        embeddings.append(np.sum(sentvec, axis=0))
    return np.vstack(embeddings)


def get_idf(europarl, src_lg, tgt_lg, n_idf):
    """
    Compute IDF values.
    """
    idf = {src_lg: {}, tgt_lg: {}}
    k = 0
    for lg in idf:
        start_idx = 200 + k * n_idf  # 200000 in the original, scaled down with the corpus
        end_idx = 200 + (k + 1) * n_idf
        for sent in europarl[lg][start_idx:end_idx]:
            for word in set(sent):
                idf[lg][word] = idf[lg].get(word, 0) + 1
        n_doc = len(europarl[lg][start_idx:end_idx])
        for word in idf[lg]:
            idf[lg][word] = max(1, np.log10(n_doc / (idf[lg][word])))
        k += 1
    return idf


def get_nn_avg_dist(emb, query, knn):
    """
    Compute the average distance of the `knn` nearest neighbors
    for a given set of embeddings and queries.
    (Faiss is not installed: the torch branch.)
    """
    bs = 1024
    all_distances = []
    emb = emb.transpose(0, 1).contiguous()
    for i in range(0, query.shape[0], bs):
        distances = query[i:i + bs].mm(emb)
        best_distances, _ = distances.topk(knn, dim=1, largest=True, sorted=True)
        all_distances.append(best_distances.mean(1).cpu())
    all_distances = torch.cat(all_distances)
    return all_distances.numpy()


def apply_mapping(mapping, input_emb):
    bs = 4096
    with torch.no_grad():
        output_emb = input_emb.clone()
        for i, k in enumerate(range(0, len(input_emb), bs)):
            x = input_emb[k:k + bs]
            output_emb[k:k + bs] = mapping(x.to(mapping.weight.device)).to(input_emb.device)
        return output_emb


# ---- src/evaluation/sent_translation.py ----
def load_europarl_data(lg1, lg2, n_max=1e10, lower=True):
    """
    Stand-in for the Europarl reader: a small seeded parallel corpus (word i of lg1 <-> word i of lg2).
    """
    rng = np.random.RandomState(0)
    n = int(min(n_max, 900))
    data = {lg1: [], lg2: []}
    for _ in range(n):
        ids = rng.randint(0, 300, size=8)
        data[lg1].append(['%s%d' % (lg1, i) for i in ids])
        data[lg2].append(['%s%d' % (lg2, i) for i in ids])
    data[lg1] = np.array(data[lg1], dtype=object)
    data[lg2] = np.array(data[lg2], dtype=object)
    logger.info("Loaded europarl %s-%s (%i sentences)." % (lg1, lg2, len(data[lg1])))
    return data


def get_sent_translation_accuracy(data, lg1, word2id1, emb1, lg2, word2id2, emb2,
                                  n_keys, n_queries, method, idf):

    """
    Given parallel sentences from Europarl, evaluate the
    sentence translation accuracy using the precision@k.
    """
    # get word vectors dictionaries
    emb1 = emb1.cpu().detach().numpy()
    emb2 = emb2.cpu().detach().numpy()
    word_vec1 = dict([(w, emb1[word2id1[w]]) for w in word2id1])
    word_vec2 = dict([(w, emb2[word2id2[w]]) for w in word2id2])
    word_vect = {lg1: word_vec1, lg2: word_vec2}
    lg_keys = lg2
    lg_query = lg1

    # get n_keys pairs of sentences
    keys = data[lg_keys][:n_keys]
    keys = bow_idf(keys, word_vect[lg_keys], idf_dict=idf[lg_keys])

    # get n_queries query pairs from these n_keys pairs
    rng = np.random.RandomState(1234)
    idx_query = rng.choice(range(n_keys), size=n_queries, replace=False)
    queries = data[lg_query][idx_query]
    queries = bow_idf(queries, word_vect[lg_query], idf_dict=idf[lg_query])

    # normalize embeddings
    queries = torch.from_numpy(queries).float()
    queries = queries / queries.norm(2, 1, keepdim=True).expand_as(queries)
    keys = torch.from_numpy(keys).float()
    keys = keys / keys.norm(2, 1, keepdim=True).expand_as(keys)

    # nearest neighbors
    if method == 'nn':
        scores = keys.mm(queries.transpose(0, 1)).transpose(0, 1)
        scores = scores.cpu()

    # contextual dissimilarity measure
    elif method.startswith('csls_knn_'):
        knn = method[len('csls_knn_'):]
        assert knn.isdigit()
        knn = int(knn)
        average_dist_keys = torch.from_numpy(get_nn_avg_dist(queries, keys, knn))
        average_dist_queries = torch.from_numpy(get_nn_avg_dist(keys, queries, knn))
        # scores
        scores = keys.mm(queries.transpose(0, 1)).transpose(0, 1)
        scores.mul_(2)
        scores.sub_(average_dist_queries[:, None].float() + average_dist_keys[None, :].float())
        scores = scores.cpu()

    results = []
    top_matches = scores.topk(10, 1, True)[1]
    for k in [1, 5, 10]:
        top_k_matches = (top_matches[:, :k] == torch.from_numpy(idx_query)[:, None]).sum(1)
        precision_at_k = 100 * top_k_matches.float().detach().cpu().numpy().mean()
        logger.info("%i queries (%s) - %s - Precision at k = %i: %f" %
                    (len(top_k_matches), lg_query.upper(), method, k, precision_at_k))
        results.append(('sent-precision_at_%i' % k, precision_at_k))

    return results


# ---- src/evaluation/evaluator.py (sentence translation) ----
class Evaluator(object):

    def __init__(self, trainer):
        """
        Initialize evaluator.
        """
        self.embs = trainer.embs
        self.vocabs = trainer.vocabs
        self.mappings = trainer.mappings
        self.discriminators = trainer.discriminators
        self.params = trainer.params

    def sent_translation(self, to_log, src_lang=None, tgt_lang=None):
        """
        Evaluation on sentence translation.
        If src_lang and tgt_lang are not specified, evaluate all src_langs to tgt_lang
        Only available on Europarl, for en - {de, es, fr, it} language pairs.
        """
        # parameters (200000 / 2000 / 300000 in the original, scaled down with the corpus)
        n_keys = 200
        n_queries = 50
        n_idf = 300

        # load europarl data
        if not hasattr(self, 'europarl_data'):
            self.europarl_data = {}

        # evaluate all src langs to tgt_lang by default
        if src_lang is None and tgt_lang is None:
            tgt_lang = self.params.tgt_lang
            for src_lang in self.params.src_langs:
                lang_pair = (src_lang, tgt_lang)
                # load europarl data
                if lang_pair not in self.europarl_data:
                    self.europarl_data[lang_pair] = load_europarl_data(
                        src_lang, tgt_lang, n_max=(n_keys + 2 * n_idf)
                    )
                # if no Europarl data for this language pair
                if not self.europarl_data or lang_pair not in self.europarl_data \
                        or self.europarl_data[lang_pair] is None:
                    logger.info(f'Europarl data not found for {src_lang}-{tgt_lang}.')
                    continue

                # mapped word embeddings
                src_emb = apply_mapping(self.mappings[src_lang],
                        self.embs[src_lang].weight)
                tgt_emb = self.embs[tgt_lang].weight

                # get idf weights
                idf = get_idf(self.europarl_data[lang_pair], src_lang, tgt_lang, n_idf=n_idf)

                for method in ['nn', 'csls_knn_10']:
                    # source <- target sentence translation
                    results = get_sent_translation_accuracy(
                        self.europarl_data[lang_pair],
                        src_lang, self.vocabs[src_lang].word2id, src_emb,
                        tgt_lang, self.vocabs[tgt_lang].word2id, tgt_emb,
                        n_keys=n_keys, n_queries=n_queries,
                        method=method, idf=idf
                    )
                    to_log.update([('%s_to_%s_%s-%s' % (tgt_lang, src_lang, k, method), v) for k, v in results])
                    # target <- source sentence translation
                    results = get_sent_translation_accuracy(
                        self.europarl_data[lang_pair],
                        tgt_lang, self.vocabs[tgt_lang].word2id, tgt_emb,
                        src_lang, self.vocabs[src_lang].word2id, src_emb,
                        n_keys=n_keys, n_queries=n_queries,
                        method=method, idf=idf
                    )
                    to_log.update([('%s_to_%s_%s-%s' % (src_lang, tgt_lang, k, method), v) for k, v in results])


# ---- src/models.py build_model, with seeded random vectors instead of the fastText files ----
def build_model(params, with_dis):
    params.vocabs, embs = {}, {}
    base = torch.randn(300, params.emb_dim)
    for lang in params.src_langs + [params.tgt_lang]:
        id2word = {i: '%s%d' % (lang, i) for i in range(300)}
        dico = Dictionary(id2word, {w: i for i, w in id2word.items()}, lang)
        params.vocabs[lang] = dico
        emb = nn.Embedding(len(dico), params.emb_dim, sparse=True)
        emb.weight.data.copy_(base + 0.1 * torch.randn(300, params.emb_dim))
        embs[lang] = emb
    # mappings
    mappings = {lang: nn.Linear(params.emb_dim, params.emb_dim, bias=False) for lang in params.src_langs}
    # set tgt mapping to fixed identity matrix
    tgt_map = nn.Linear(params.emb_dim, params.emb_dim, bias=False)
    tgt_map.weight.data.copy_(torch.diag(torch.ones(params.emb_dim)))
    for p in tgt_map.parameters():
        p.requires_grad = False
    mappings[params.tgt_lang] = tgt_map
    for mapping in mappings.values():
        mapping.weight.data.copy_(torch.diag(torch.ones(params.emb_dim)))
    return embs, mappings, None


params = types.SimpleNamespace(src_langs=['de', 'fr'], tgt_lang='en', emb_dim=32)
embs, mappings, discriminators = build_model(params, with_dis=False)
trainer = types.SimpleNamespace(embs=embs, vocabs=params.vocabs, mappings=mappings,
                                discriminators=discriminators, params=params)
evaluator = Evaluator(trainer)
to_log = {}
evaluator.sent_translation(to_log)
print(sorted(to_log.items())[:4])
