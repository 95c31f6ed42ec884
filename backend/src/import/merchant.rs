//! Merchants from raw bank labels: "CB CARREFOUR CITY 12/01" → Carrefour. The label's
//! operation words (`CB`, `PRLV SEPA`, `PAIEMENT PAR CARTE`…), dates, card numbers and
//! references are dropped; what is left is matched, as whole words, against the user's
//! merchants and their aliases, then against well-known brands; failing both, its first
//! words, up to a city or country, name a new merchant. Transfers, withdrawals, fees and
//! interest name none.

use std::collections::HashMap;

use super::fold;

/// A merchant a label can be recognised as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Known {
    pub key: String,
    pub name: String,
    /// Other names, as written in labels ("carref", "amzn").
    pub aliases: Vec<String>,
    /// The category key it usually gets.
    pub category: Option<String>,
}

/// What a label names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recognised {
    pub key: String,
    pub name: String,
    pub category: Option<String>,
    /// Whether it is one of the merchants given (else a brand or a new one).
    pub known: bool,
}

/// Brands common on French and English statements: (key, name, category, aliases).
const BRANDS: &[(&str, &str, &str, &[&str])] = &[
    (
        "carrefour",
        "Carrefour",
        "groceries",
        &["carrefour city", "carrefour market", "carrefour express", "carref"],
    ),
    ("monoprix", "Monoprix", "groceries", &["monop"]),
    ("franprix", "Franprix", "groceries", &[]),
    ("lidl", "Lidl", "groceries", &[]),
    ("aldi", "Aldi", "groceries", &[]),
    ("auchan", "Auchan", "groceries", &[]),
    ("leclerc", "E.Leclerc", "groceries", &["e leclerc"]),
    ("intermarche", "Intermarché", "groceries", &["itm"]),
    ("casino", "Casino", "groceries", &["geant casino"]),
    ("super_u", "Super U", "groceries", &["hyper u", "u express", "magasins u"]),
    ("picard", "Picard", "groceries", &[]),
    ("biocoop", "Biocoop", "groceries", &[]),
    ("naturalia", "Naturalia", "groceries", &[]),
    ("grand_frais", "Grand Frais", "groceries", &[]),
    ("tesco", "Tesco", "groceries", &[]),
    ("sainsburys", "Sainsbury's", "groceries", &["sainsbury s", "sainsbury"]),
    ("whole_foods", "Whole Foods", "groceries", &["whole foods market"]),
    ("trader_joes", "Trader Joe's", "groceries", &["trader joe s"]),
    ("walmart", "Walmart", "groceries", &["wal mart"]),
    ("sncf", "SNCF", "transport", &["sncf connect", "ouigo", "tgv"]),
    ("ratp", "RATP", "transport", &["navigo"]),
    ("uber", "Uber", "transport", &["uber trip", "uber bv"]),
    ("bolt", "Bolt", "transport", &[]),
    ("blablacar", "BlaBlaCar", "transport", &[]),
    ("totalenergies", "TotalEnergies", "transport", &["total", "total access"]),
    ("shell", "Shell", "transport", &[]),
    ("netflix", "Netflix", "subscriptions", &["netflix com"]),
    ("spotify", "Spotify", "subscriptions", &[]),
    ("deezer", "Deezer", "subscriptions", &[]),
    ("disney_plus", "Disney+", "subscriptions", &["disney plus", "disneyplus"]),
    ("canal_plus", "Canal+", "subscriptions", &["canal plus", "canalplus"]),
    ("apple", "Apple", "subscriptions", &["apple com", "itunes"]),
    ("google", "Google", "subscriptions", &["google play"]),
    ("edf", "EDF", "utilities", &[]),
    ("engie", "Engie", "utilities", &[]),
    ("veolia", "Veolia", "utilities", &[]),
    ("free_mobile", "Free Mobile", "utilities", &["freebox", "free telecom"]),
    ("orange", "Orange", "utilities", &["orange sa"]),
    ("sfr", "SFR", "utilities", &[]),
    ("bouygues", "Bouygues Telecom", "utilities", &["bouygues telecom"]),
    ("fnac", "Fnac", "shopping", &["fnac com"]),
    ("darty", "Darty", "shopping", &[]),
    ("amazon", "Amazon", "shopping", &["amzn", "amazon payments", "amazon fr", "amazon eu", "amazon mktp"]),
    ("decathlon", "Decathlon", "shopping", &[]),
    ("ikea", "IKEA", "shopping", &[]),
    ("leroy_merlin", "Leroy Merlin", "shopping", &[]),
    ("zara", "Zara", "shopping", &[]),
    ("h_m", "H&M", "shopping", &["h m", "h et m"]),
    ("sephora", "Sephora", "shopping", &[]),
    ("action", "Action", "shopping", &[]),
    ("starbucks", "Starbucks", "restaurants", &[]),
    ("mcdonalds", "McDonald's", "restaurants", &["mcdonald s", "mc donald s", "mcdo"]),
    ("burger_king", "Burger King", "restaurants", &[]),
    ("deliveroo", "Deliveroo", "restaurants", &[]),
    ("uber_eats", "Uber Eats", "restaurants", &["ubereats"]),
    ("just_eat", "Just Eat", "restaurants", &[]),
    ("paul", "Paul", "restaurants", &["boulangerie paul"]),
    ("air_france", "Air France", "travel", &[]),
    ("easyjet", "easyJet", "travel", &[]),
    ("ryanair", "Ryanair", "travel", &[]),
    ("airbnb", "Airbnb", "travel", &[]),
    ("booking", "Booking.com", "travel", &["booking com"]),
    ("ugc", "UGC", "leisure", &["ugc cine cite"]),
    ("pathe", "Pathé", "leisure", &["pathe gaumont"]),
    ("basic_fit", "Basic-Fit", "leisure", &["basicfit", "basic fit"]),
    ("doctolib", "Doctolib", "health", &[]),
    ("pharmacie", "Pharmacie", "health", &[]),
];

/// Operation words banks put before the merchant, longest first.
const PREFIXES: &[&str] = &[
    "paiement par carte",
    "paiement carte",
    "paiement cb",
    "achat par carte",
    "achat cb",
    "facture carte du",
    "facture carte",
    "carte bancaire",
    "debit card purchase",
    "card purchase",
    "pos purchase",
    "prelevement sepa",
    "prelevement",
    "prlv sepa",
    "prlv",
    "carte",
    "purchase",
    "pos",
    "cb",
    // Payment processors that put their name before the shop's.
    "sq",
    "tst",
    "paypal",
    "sumup",
    "zettle",
    "iz",
    "lyf",
    "payplug",
    "stripe",
];

/// Places banks write after the shop's name ("BOULANGERIE MARTIN PARIS 15 FR"): the
/// largest French and English-speaking cities, and a country as the label's last word. A new
/// merchant's name stops before one, unless it follows a preposition or a single letter
/// ("Hôtel de Paris"). Names that are also common words (Tours) are left out.
#[rustfmt::skip]
const CITIES: &[&str] = &[
    "paris", "marseille", "lyon", "toulouse", "nice", "nantes", "montpellier", "strasbourg",
    "bordeaux", "lille", "rennes", "reims", "toulon", "grenoble", "dijon", "angers", "nimes",
    "saint etienne", "villeurbanne", "brest", "limoges", "amiens", "perpignan", "metz",
    "besancon", "orleans", "rouen", "mulhouse", "caen", "nancy", "argenteuil", "montreuil",
    "roubaix", "avignon", "poitiers", "versailles", "pau", "calais", "cannes", "antibes",
    "ajaccio", "bastia", "bruxelles", "brussels", "geneve", "geneva", "lausanne", "luxembourg",
    "montreal", "quebec", "london", "manchester", "birmingham", "edinburgh", "dublin",
    "new york", "san francisco", "los angeles", "seattle", "chicago", "boston",
];
const COUNTRIES: &[&str] = &["fr", "fra", "france", "gb", "gbr", "uk", "us", "usa", "irl", "lux"];

/// Words after which a place is part of the name.
const LINKS: &[&str] = &["de", "du", "des", "la", "le", "les", "of", "the", "in"];

/// Labels starting with these words move money without a merchant.
const NOT_MERCHANTS: &[&str] = &[
    "vir",
    "virement",
    "transfer",
    "retrait",
    "dab",
    "withdrawal",
    "atm",
    "interets",
    "interest",
    "frais",
    "fee",
    "fees",
    "cotisation",
    "commission",
    "cheque",
    "remise",
    "agios",
];

/// Words of `label` that may name a merchant — each folded (lower-case, accents off)
/// and as written, lower-cased — without dates (`12/01`, `120126`), card numbers
/// (`X1234`, `*1234`) and other words with digits.
fn words(label: &str) -> (Vec<String>, Vec<String>) {
    let mut folded = Vec::new();
    let mut written = Vec::new();
    for token in label.split_whitespace().filter(|t| !t.chars().any(|c| c.is_ascii_digit())) {
        for part in token.split(|c: char| !c.is_alphanumeric()).filter(|p| !p.is_empty()) {
            let f = fold(part);
            if f.is_empty() || (f.len() > 1 && f.starts_with('x') && f[1..].bytes().all(|b| b == b'x')) {
                continue;
            }
            folded.push(f);
            written.push(part.to_lowercase());
        }
    }
    (folded, written)
}

/// One name or alias a label can contain: its folded words and what it means.
struct Entry {
    words: Vec<String>,
    /// Length of the folded text: the longest match wins.
    len: usize,
    /// The user's merchant (wins a tie over a brand).
    user: bool,
    recognised: Recognised,
}

/// The names labels are matched against — the user's merchants and the brands —
/// indexed by their first word, so that a label is matched in time proportional to
/// its words, whatever the number of merchants. Built once per import.
pub struct Matcher {
    by_first: HashMap<String, Vec<Entry>>,
    /// The user's merchants by key: a brand they have under its key is theirs.
    mine: HashMap<String, Recognised>,
}

impl Matcher {
    pub fn new(known: &[Known]) -> Matcher {
        let mut by_first: HashMap<String, Vec<Entry>> = HashMap::new();
        let mut add = |text: &str, user: bool, recognised: &Recognised| {
            let folded = fold(text);
            let words: Vec<String> =
                folded.split(' ').filter(|w| !w.is_empty()).map(str::to_string).collect();
            if let Some(first) = words.first() {
                let entry =
                    Entry { len: folded.len(), words: words.clone(), user, recognised: recognised.clone() };
                by_first.entry(first.clone()).or_default().push(entry);
            }
        };
        let mut mine = HashMap::new();
        for k in known {
            let r = Recognised {
                key: k.key.clone(),
                name: k.name.clone(),
                category: k.category.clone(),
                known: true,
            };
            for name in std::iter::once(&k.name).chain(&k.aliases) {
                add(name, true, &r);
            }
            mine.insert(k.key.clone(), r);
        }
        for (key, name, category, aliases) in BRANDS {
            let r = Recognised {
                key: key.to_string(),
                name: name.to_string(),
                category: Some(category.to_string()),
                known: false,
            };
            for alias in std::iter::once(*name).chain(aliases.iter().copied()) {
                add(alias, false, &r);
            }
        }
        Matcher { by_first, mine }
    }

    /// The merchant `label` names, if any.
    pub fn recognise(&self, label: &str) -> Option<Recognised> {
        let (mut words, mut written) = words(label);
        if words.first().is_some_and(|w| NOT_MERCHANTS.contains(&w.as_str())) {
            return None;
        }
        // Operation words, possibly several ("CB PAYPAL *SPOTIFY").
        loop {
            let before = words.len();
            for prefix in PREFIXES {
                let p: Vec<&str> = prefix.split(' ').collect();
                if words.len() > p.len() && words.iter().zip(&p).all(|(a, b)| a == b) {
                    words.drain(..p.len());
                    written.drain(..p.len());
                    break;
                }
            }
            if words.len() == before {
                break;
            }
        }
        if words.is_empty() || PREFIXES.contains(&words.join(" ").as_str()) {
            return None;
        }
        // The longest name or alias found wins; the user's merchants before brands.
        let best = (0..words.len())
            .flat_map(|i| self.by_first.get(&words[i]).into_iter().flatten().map(move |e| (i, e)))
            .filter(|(i, e)| words.len() - i >= e.words.len() && words[*i..*i + e.words.len()] == e.words[..])
            .map(|(_, e)| e)
            .max_by_key(|e| (e.len, e.user));
        if let Some(e) = best {
            return Some(match self.mine.get(&e.recognised.key) {
                Some(mine) if !e.user => mine.clone(),
                _ => e.recognised.clone(),
            });
        }
        // A new merchant: up to three words before any place, capitalised.
        let place_at = |i: usize| {
            (i + 1 == words.len() && COUNTRIES.contains(&words[i].as_str()))
                || CITIES.iter().any(|city| {
                    let n = city.split(' ').count();
                    words.len() - i >= n && words[i..i + n].iter().map(String::as_str).eq(city.split(' '))
                })
        };
        let end = (1..words.len())
            .find(|&i| place_at(i) && words[i - 1].len() > 1 && !LINKS.contains(&words[i - 1].as_str()))
            .unwrap_or(words.len());
        let first: Vec<usize> = (0..end).filter(|&i| words[i].len() > 1 || end == 1).take(3).collect();
        if first.is_empty() {
            return None;
        }
        let key = first.iter().map(|&i| words[i].as_str()).collect::<Vec<_>>().join("_");
        let name = first.iter().map(|&i| capitalise(&written[i])).collect::<Vec<_>>().join(" ");
        Some(Recognised { key, name, category: None, known: false })
    }
}

/// The merchant `label` names, if any. `known` are the user's merchants, which win over
/// the built-in brands. (Many labels: build a [`Matcher`] once.)
pub fn recognise(label: &str, known: &[Known]) -> Option<Recognised> {
    Matcher::new(known).recognise(label)
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(label: &str, known: &[Known]) -> Option<String> {
        recognise(label, known).map(|r| r.name)
    }

    #[test]
    fn labels_as_banks_write_them() {
        for (label, want) in [
            ("CB CARREFOUR CITY 12/01", Some("Carrefour")),
            ("PAIEMENT PAR CARTE X4512 MONOPRIX PARIS 15 03/02", Some("Monoprix")),
            ("PRLV SEPA EDF REF 1234", Some("EDF")),
            ("CB NETFLIX.COM 15/01", Some("Netflix")),
            ("CB PAYPAL *SPOTIFY", Some("Spotify")),
            ("AMZN Mktp FR*2K4", Some("Amazon")),
            ("Uber Eats help.uber.com", Some("Uber Eats")),
            ("CARD PURCHASE STARBUCKS #1234 SEATTLE", Some("Starbucks")),
            ("CB BOULANGERIE MARTIN 12/01", Some("Boulangerie Martin")),
            ("CB LIBRAIRIE ÉLÉGANTE", Some("Librairie Élégante")),
            // A place after the name is not part of it; after a preposition it is.
            ("CB BOULANGERIE MARTIN PARIS 15 12/01", Some("Boulangerie Martin")),
            ("CARD PURCHASE JOE'S DINER NEW YORK US", Some("Joe Diner")),
            ("FACTURE CARTE DU 03/02 CAFE DU PORT NANTES FR", Some("Cafe Du Port")),
            ("CB HOTEL DE PARIS 04/02", Some("Hotel De Paris")),
            ("CB PARIS BAGUETTE 12/01", Some("Paris Baguette")),
            ("CB BOUCHERIE DUPONT FR", Some("Boucherie Dupont")),
            ("CB CAFE UK STYLE 12/01", Some("Cafe Uk Style")),
            // Payment processors before the shop's name.
            ("CB SUMUP *LE PETIT ZINC 12/01", Some("Le Petit Zinc")),
            ("CARTE X1234 ZETTLE_*BISTROT AUGUSTE LYON", Some("Bistrot Auguste")),
            ("CB LYF*BAR DES AMIS", Some("Bar Des Amis")),
            ("VIR SEPA SALAIRE ACME", None),
            ("RETRAIT DAB 12/01 PARIS 11", None),
            ("INTERETS CREDITEURS 2025", None),
            ("CB 12/01", None),
            ("", None),
        ] {
            assert_eq!(name(label, &[]).as_deref(), want, "{label:?}");
        }
    }

    #[test]
    fn the_users_merchants_win_and_keep_their_category() {
        let known = [Known {
            key: "chez_lulu".into(),
            name: "Chez Lulu".into(),
            aliases: vec!["lulu".into()],
            category: Some("restaurants".into()),
        }];
        let r = recognise("CB LULU 12/03", &known).unwrap();
        assert_eq!(
            (r.key.as_str(), r.category.as_deref(), r.known),
            ("chez_lulu", Some("restaurants"), true)
        );
        // A brand the user has under its key is the user's row.
        let mine =
            [Known { key: "carrefour".into(), name: "Carrefour".into(), aliases: vec![], category: None }];
        let r = recognise("CB CARREFOUR MARKET 02/01", &mine).unwrap();
        assert!(r.known);
        assert_eq!(r.category, None);
    }
}
