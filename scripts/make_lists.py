#!/usr/bin/env python3
"""Big test lists of made-up people and companies, in the four formats `idv screening
import` reads (adapter-lists): OFAC's legacy CSV (sdn.csv, alt.csv, add.csv), the UN's
consolidated XML (un.xml), the EU's financial sanctions XML (eu.xml) and the generic CSV
(list.csv). The same entries in each, written as each list writes them.

    python3 -m venv /tmp/faker-venv && /tmp/faker-venv/bin/pip install faker
    /tmp/faker-venv/bin/python scripts/make_lists.py OUT_DIR [--entries 20000]
        [--aliases-per-entry 3] [--seed 1] [--unlisted N [--unlisted-seed S]]

Names come from Faker in several locales (en_US, fr_FR, es_ES, de_DE, it_IT, tr_TR, ru_RU
transliterated, ar_AA and zh_CN, whose own script is kept as an alias); every entry has
exactly K aliases, distinct from its other names. A fifth of the entries are companies;
people have a full date of birth, a year, a range of years or none, and one or two
nationalities. The same seed gives the same files (with the same Faker version). The
counts that an import should find are printed last, as JSON.

With --unlisted N, unlisted.csv also holds N made-up people drawn afterwards from another
seed (--unlisted-seed, the list's seed + 1000 by default), in the same locales (given,
family, locale; Russian transliterated as the list writes it): people who are not on the
list but for namesakes, which a reader drops (the accuracy benchmark,
adapter-lists' example screening_accuracy). The list's files are the same with or
without it.

Only the standard library and Faker.
"""
import argparse
import csv
import json
import os
import random
from xml.sax.saxutils import escape, quoteattr

from faker import Faker

# Locale: ISO code and name of its country (OFAC and the UN write the name, the EU and the
# generic CSV the code). Arabic names draw one of several countries.
COUNTRIES = {
    "en_US": [("US", "United States")],
    "fr_FR": [("FR", "France")],
    "es_ES": [("ES", "Spain")],
    "de_DE": [("DE", "Germany")],
    "it_IT": [("IT", "Italy")],
    "tr_TR": [("TR", "Turkey")],
    "ru_RU": [("RU", "Russia"), ("BY", "Belarus")],
    "ar_AA": [("SY", "Syria"), ("IQ", "Iraq"), ("YE", "Yemen"), ("LB", "Lebanon")],
    "zh_CN": [("CN", "China")],
}
LOCALES = list(COUNTRIES)

# Russian in Latin letters, as the lists write it (BGN/PCGN, simplified).
CYRILLIC = dict(zip(
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
    ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p",
     "r", "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya"],
))

# Arabic names as the lists spell them in Latin letters (Faker's ar_AA gives the script).
ARABIC_GIVEN = ["Mohammed", "Ahmad", "Ali", "Hassan", "Hussein", "Omar", "Khalid",
                "Abdullah", "Yusuf", "Ibrahim", "Mustafa", "Tariq", "Samir", "Walid",
                "Faisal", "Nabil", "Karim", "Salim", "Jamal", "Rami"]
ARABIC_FAMILY = ["Al-Masri", "Haddad", "Nasser", "Khalil", "Saleh", "Hamdan", "Al-Tikriti",
                 "Mansour", "Qasim", "Al-Rashid", "Darwish", "Aziz", "Shami", "Barakat",
                 "Al-Hakim", "Zaidan", "Othman", "Karam", "Sabbagh", "Al-Jabouri"]

COMPANY_FORMS = ["LTD", "LLC", "TRADING CO.", "GROUP", "INTERNATIONAL", "HOLDING",
                 "SHIPPING", "INVESTMENTS", "ENTERPRISES", "INDUSTRIES"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def latin(text):
    """Cyrillic transliterated, anything else as it is."""
    out = []
    for c in text:
        t = CYRILLIC.get(c.lower())
        if t is None:
            out.append(c)
        else:
            out.append(t.capitalize() if c.isupper() else t)
    return "".join(out)


def spelling_variant(word, rng):
    """The same name as another clerk spells it."""
    swaps = [("ov", "off"), ("ev", "eff"), ("y", "i"), ("i", "y"), ("ou", "u"), ("u", "ou"),
             ("ph", "f"), ("ch", "sh"), ("Al-", "El-"), ("ss", "s"), ("kh", "h"), ("e", "a")]
    rng.shuffle(swaps)
    for a, b in swaps:
        if a in word:
            return word.replace(a, b, 1)
    return word + word[-1]


class Drawer:
    def __init__(self, seed):
        Faker.seed(seed)
        self.fake = Faker(LOCALES)
        self.rng = random.Random(seed)

    def person_name(self, locale):
        """(given, family, name in its own script or None)."""
        f = self.fake[locale]
        if locale == "ar_AA":
            return (self.rng.choice(ARABIC_GIVEN), self.rng.choice(ARABIC_FAMILY),
                    f"{f.first_name_male()} {f.last_name()}")
        if locale == "zh_CN":
            given, family = f.first_romanized_name(), f.last_romanized_name()
            return given, family, f"{f.last_name()}{f.first_name()}"
        if locale == "ru_RU":
            given, family = f.first_name_male(), f.last_name_male()
            return latin(given), latin(family), f"{given} {family}"
        return f.first_name(), f.last_name(), None

    def company_name(self, locale):
        """(name, name in its own script or None)."""
        f = self.fake[locale]
        if locale == "ar_AA":
            return f"{self.rng.choice(ARABIC_FAMILY)} {self.rng.choice(COMPANY_FORMS)}", f.company()
        if locale == "zh_CN":
            return f"{f.last_romanized_name()} {self.rng.choice(COMPANY_FORMS)}", f.company()
        if locale == "ru_RU":
            company = f.company()
            return latin(company), company
        return f.company(), None

    def aliases(self, names, candidates, count, more):
        """`count` names from `candidates`, then from `more()`, none twice (case aside)."""
        seen = {n.casefold() for n in names}
        out = []
        for name in candidates:
            if len(out) == count:
                break
            name = " ".join(name.split())
            if name and name.casefold() not in seen:
                seen.add(name.casefold())
                out.append(name)
        while len(out) < count:
            name = " ".join(more().split())
            if name and name.casefold() not in seen:
                seen.add(name.casefold())
                out.append(name)
        return out

    def entry(self, i, aliases):
        rng = self.rng
        locale = rng.choice(LOCALES)
        countries = [rng.choice(COUNTRIES[locale])]
        if rng.random() < 0.2:
            company, script = self.company_name(locale)
            words = [w for w in company.replace(",", " ").split() if w[:1].isalpha()]
            candidates = [script or "", f"{company} {rng.choice(COMPANY_FORMS)}",
                          "".join(w[0] for w in words).upper(),
                          f"FORMERLY {company.upper()}", spelling_variant(company, rng)]
            more = lambda: f"{self.company_name(locale)[0]} {rng.choice(COMPANY_FORMS)}"
            return {
                "i": i, "person": False, "given": None, "family": None, "name": company,
                "aliases": self.aliases([company], candidates, aliases, more),
                "births": [], "countries": countries,
            }
        given, family, script = self.person_name(locale)
        name = f"{given} {family}"
        other_given = self.person_name(locale)[0]
        candidates = [script or "", f"{family} {given}", f"{given[0]}. {family}",
                      f"{given} {spelling_variant(family, rng)}", f"{other_given} {family}",
                      f"{given} {other_given} {family}"]
        if locale == "ar_AA":
            candidates.insert(1, f"Abu {given}")
        more = lambda: "{} {}".format(*self.person_name(locale)[:2])
        kind = rng.random()
        year = rng.randint(1940, 2000)
        if kind < 0.55:
            births = [("date", year, rng.randint(1, 12), rng.randint(1, 28))]
            if rng.random() < 0.2:
                births.append(("year", year + rng.choice([-2, -1, 1, 2])))
        elif kind < 0.8:
            births = [("year", year)]
        elif kind < 0.9:
            births = [("range", year, year + rng.randint(1, 4))]
        else:
            births = []
        if rng.random() < 0.15:
            second = rng.choice(COUNTRIES[rng.choice(LOCALES)])
            if second not in countries:
                countries.append(second)
        return {
            "i": i, "person": True, "given": given, "family": family, "name": name,
            "aliases": self.aliases([name], candidates, aliases, more),
            "births": births, "countries": countries,
        }


def birth_years(birth):
    """How many dates of birth an importer reads from one (a range gives each year)."""
    return birth[2] - birth[1] + 1 if birth[0] == "range" else 1


def ofac_name(e):
    return f"{e['family'].upper()}, {e['given']}" if e["person"] else e["name"].upper()


def write_ofac(out, entries):
    null = "-0- "
    opened = [open(os.path.join(out, name), "w", newline="", encoding="utf-8")
              for name in ("sdn.csv", "alt.csv", "add.csv")]
    sdn, alt, add = [csv.writer(f, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\r\n")
                     for f in opened]
    alt_num = add_num = 0
    for e in entries:
        ent_num = 10_000 + e["i"]
        remarks = []
        for k, b in enumerate(e["births"]):
            dob = {"date": lambda: f"{b[3]:02d} {MONTHS[b[2] - 1]} {b[1]}",
                   "year": lambda: f"{b[1]}",
                   "range": lambda: f"{b[1]} to {b[2]}"}[b[0]]()
            remarks.append(("alt. " if k else "") + "DOB " + dob)
        if e["person"]:
            remarks += [f"nationality {name}" for _, name in e["countries"]]
        sdn.writerow([ent_num, ofac_name(e), "individual" if e["person"] else null, "SDGT",
                      null, null, null, null, null, null, null,
                      "; ".join(remarks) + "." if remarks else null])
        for a in e["aliases"]:
            alt_num += 1
            alt.writerow([ent_num, alt_num, "aka", a, null])
        if not e["person"]:
            for _, name in e["countries"]:
                add_num += 1
                add.writerow([ent_num, add_num, null, null, name, null])
    for f in opened:
        f.write("\x1a")
        f.close()


def write_un(out, entries):
    with open(os.path.join(out, "un.xml"), "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<CONSOLIDATED_LIST '
                'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
                'xsi:noNamespaceSchemaLocation="sc-sanctions.xsd" '
                'dateGenerated="2024-01-15T10:00:00.000Z">\n')
        for group, element, person in (("INDIVIDUALS", "INDIVIDUAL", True),
                                       ("ENTITIES", "ENTITY", False)):
            f.write(f"<{group}>\n")
            for e in (e for e in entries if e["person"] == person):
                kind = "i" if person else "e"
                f.write(f"<{element}>\n<DATAID>{6_900_000 + e['i']}</DATAID>\n"
                        "<VERSIONNUM>1</VERSIONNUM>\n")
                if person:
                    f.write(f"<FIRST_NAME>{escape(e['given'].upper())}</FIRST_NAME>\n"
                            f"<SECOND_NAME>{escape(e['family'].upper())}</SECOND_NAME>\n"
                            "<THIRD_NAME/>\n")
                else:
                    f.write(f"<FIRST_NAME>{escape(e['name'].upper())}</FIRST_NAME>\n")
                f.write(f"<UN_LIST_TYPE>Al-Qaida</UN_LIST_TYPE>\n"
                        f"<REFERENCE_NUMBER>QD{kind}.{e['i']:05d}</REFERENCE_NUMBER>\n"
                        "<LISTED_ON>2001-01-25</LISTED_ON>\n<COMMENTS1/>\n")
                if person:
                    values = "".join(f"<VALUE>{escape(n)}</VALUE>" for _, n in e["countries"])
                    f.write(f"<NATIONALITY>{values}</NATIONALITY>\n")
                f.write("<LIST_TYPE><VALUE>UN List</VALUE></LIST_TYPE>\n")
                for a in e["aliases"]:
                    f.write(f"<{element}_ALIAS>\n<QUALITY>Good</QUALITY>\n"
                            f"<ALIAS_NAME>{escape(a)}</ALIAS_NAME>\n</{element}_ALIAS>\n")
                if person:
                    f.write("<INDIVIDUAL_ADDRESS/>\n")
                else:
                    for _, n in e["countries"]:
                        f.write(f"<ENTITY_ADDRESS>\n<COUNTRY>{escape(n)}</COUNTRY>\n"
                                "</ENTITY_ADDRESS>\n")
                for b in e["births"]:
                    body = {"date": lambda: "<TYPE_OF_DATE>EXACT</TYPE_OF_DATE>\n"
                                            f"<DATE>{b[1]}-{b[2]:02d}-{b[3]:02d}</DATE>",
                            "year": lambda: "<TYPE_OF_DATE>APPROXIMATELY</TYPE_OF_DATE>\n"
                                            f"<YEAR>{b[1]}</YEAR>",
                            "range": lambda: "<TYPE_OF_DATE>BETWEEN</TYPE_OF_DATE>\n"
                                             f"<FROM_YEAR>{b[1]}</FROM_YEAR>\n"
                                             f"<TO_YEAR>{b[2]}</TO_YEAR>"}[b[0]]()
                    f.write(f"<INDIVIDUAL_DATE_OF_BIRTH>\n{body}\n</INDIVIDUAL_DATE_OF_BIRTH>\n")
                f.write(f"<SORT_KEY/>\n<SORT_KEY_LAST_MOD/>\n</{element}>\n")
            f.write(f"</{group}>\n")
        f.write("</CONSOLIDATED_LIST>\n")


def write_eu(out, entries):
    logical = [200_000]

    def next_id():
        logical[0] += 1
        return logical[0]

    with open(os.path.join(out, "eu.xml"), "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<export '
                'xmlns="http://eu.europa.eu/fpi/fsd/export" '
                'generationDate="2024-01-15T10:00:00.000+01:00" globalFileId="170000">\n')
        for e in entries:
            f.write(f'<sanctionEntity designationDetails="" unitedNationId="" '
                    f'euReferenceNumber="EU.{1000 + e["i"]}.{e["i"] % 100}" '
                    f'logicalId="{100_000 + e["i"]}">\n'
                    f'<regulation regulationType="regulation" organisationType="council" '
                    f'publicationDate="2024-01-15" programme="TEST" logicalId="{next_id()}"/>\n')
            code, cls = ("person", "P") if e["person"] else ("enterprise", "E")
            f.write(f'<subjectType code="{code}" classificationCode="{cls}"/>\n')
            if e["person"]:
                first, last = e["given"], e["family"].upper()
                names = [(first, last, f"{first} {last}")] + [("", "", a) for a in e["aliases"]]
            else:
                names = [("", "", n) for n in [e["name"]] + e["aliases"]]
            for first, last, whole in names:
                f.write(f'<nameAlias firstName={quoteattr(first)} middleName="" '
                        f'lastName={quoteattr(last)} wholeName={quoteattr(whole)} function="" '
                        f'gender="" title="" nameLanguage="" strong="true" '
                        f'regulationLanguage="en" logicalId="{next_id()}"/>\n')
            element = "citizenship" if e["person"] else "address"
            for iso, name in e["countries"]:
                f.write(f'<{element} region="" countryIso2Code="{iso}" '
                        f'countryDescription={quoteattr(name.upper())} regulationLanguage="en" '
                        f'logicalId="{next_id()}"/>\n')
            for b in e["births"]:
                date = {"date": lambda: f'circa="false" birthdate="{b[1]}-{b[2]:02d}-{b[3]:02d}" '
                                        f'dayOfMonth="{b[3]}" monthOfYear="{b[2]}" year="{b[1]}"',
                        "year": lambda: f'circa="false" year="{b[1]}"',
                        "range": lambda: f'circa="true" yearRangeFrom="{b[1]}" '
                                         f'yearRangeTo="{b[2]}"'}[b[0]]()
                f.write(f'<birthdate {date} calendarType="GREGORIAN" city="" zipCode="" '
                        f'region="" place="" countryIso2Code="00" countryDescription="UNKNOWN" '
                        f'regulationLanguage="en" logicalId="{next_id()}"/>\n')
            f.write("</sanctionEntity>\n")
        f.write("</export>\n")


def write_generic(out, entries):
    with open(os.path.join(out, "list.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["id", "name", "aliases", "date_of_birth", "country"])
        for e in entries:
            dates = []
            for b in e["births"]:
                if b[0] == "date":
                    dates.append(f"{b[1]}-{b[2]:02d}-{b[3]:02d}")
                elif b[0] == "year":
                    dates.append(str(b[1]))
                else:
                    dates += [str(y) for y in range(b[1], b[2] + 1)]
            w.writerow([f"P-{e['i']}", e["name"], ";".join(e["aliases"]), ";".join(dates),
                        ";".join(iso for iso, _ in e["countries"])])


def write_unlisted(out, count, seed):
    drawer = Drawer(seed)
    with open(os.path.join(out, "unlisted.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["given", "family", "locale"])
        for _ in range(count):
            locale = drawer.rng.choice(LOCALES)
            given, family, _ = drawer.person_name(locale)
            w.writerow([given, family, locale])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="the directory to write the lists into")
    parser.add_argument("--entries", type=int, default=20_000)
    parser.add_argument("--aliases-per-entry", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--unlisted", type=int, default=0,
                        help="also write unlisted.csv: this many people not on the list")
    parser.add_argument("--unlisted-seed", type=int, default=None,
                        help="their seed (default: the list's seed + 1000)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    drawer = Drawer(args.seed)
    entries = [drawer.entry(i, args.aliases_per_entry) for i in range(args.entries)]
    write_ofac(args.out, entries)
    write_un(args.out, entries)
    write_eu(args.out, entries)
    write_generic(args.out, entries)
    if args.unlisted:
        seed = args.seed + 1000 if args.unlisted_seed is None else args.unlisted_seed
        write_unlisted(args.out, args.unlisted, seed)
    print(json.dumps({
        "entries": len(entries),
        "people": sum(e["person"] for e in entries),
        "names": sum(1 + len(e["aliases"]) for e in entries),
        "dates_of_birth": sum(birth_years(b) for e in entries for b in e["births"]),
        "countries": sum(len(e["countries"]) for e in entries),
    }))


if __name__ == "__main__":
    main()
