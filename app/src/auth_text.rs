//! What the account forms (sign-in, sign-up, Settings → Account) say when they come
//! back refused: a stable code from the server and, for a refusal that passes with
//! time, the real wait in seconds, said here in words.

use agent::Locale;

use crate::i18n::tr;

/// The reason an account form came back, in the page's language.
pub fn error_text(code: &str, retry_secs: Option<u64>, locale: Locale) -> String {
    let text = match code {
        "invalid_credentials" => tr(locale, "Nom ou mot de passe incorrect.", "Wrong name or password."),
        "wrong_password" => {
            tr(locale, "Ce n'est pas votre mot de passe actuel.", "That is not your current password.")
        }
        "no_password" => tr(
            locale,
            "Un compte de démonstration n'a pas de mot de passe.",
            "A demo account has no password.",
        ),
        "rate_limited" => {
            let wait = wait_text(retry_secs.unwrap_or(60), locale);
            return match locale {
                Locale::Fr => format!("Trop d'essais infructueux. Réessayez dans {wait}."),
                Locale::En => format!("Too many failed attempts. Try again in {wait}."),
            };
        }
        "demo_limited" => {
            let wait = wait_text(retry_secs.unwrap_or(3600), locale);
            return match locale {
                Locale::Fr => format!("Trop de démos ouvertes depuis votre adresse. Réessayez dans {wait}."),
                Locale::En => format!("Too many demos were started from your address. Try again in {wait}."),
            };
        }
        "name_taken" => tr(locale, "Ce nom est déjà pris.", "This name is already taken."),
        "name_length" => tr(locale, "Un nom fait de 3 à 64 caractères.", "A name has 3 to 64 characters."),
        "name_characters" => tr(
            locale,
            "Un nom n'utilise que des lettres, des chiffres et . _ - @ +",
            "A name uses letters, digits and . _ - @ + only.",
        ),
        "name_reserved" => tr(locale, "Ce nom est réservé.", "This name is reserved."),
        "password_short" => tr(
            locale,
            "Le mot de passe doit faire au moins 10 caractères.",
            "The password needs at least 10 characters.",
        ),
        "password_long" => tr(
            locale,
            "Le mot de passe est trop long (1024 octets au plus).",
            "The password is too long (1024 bytes at most).",
        ),
        "password_mismatch" => tr(
            locale,
            "Les deux mots de passe ne sont pas identiques.",
            "The two passwords are not the same.",
        ),
        "demo_full" => tr(
            locale,
            "Trop de démos sont en cours. Réessayez plus tard.",
            "Too many demos are running. Try again later.",
        ),
        "closed" => tr(
            locale,
            "Ce serveur n'accepte pas de nouveaux comptes.",
            "This server does not accept new accounts.",
        ),
        _ => tr(
            locale,
            "Une erreur est survenue sur le serveur. Réessayez.",
            "Something went wrong on the server. Try again.",
        ),
    };
    text.to_string()
}

/// A wait in seconds under a minute, else in whole minutes (rounded up), in words: the
/// server sends the real wait, rounded up to the second.
fn wait_text(secs: u64, locale: Locale) -> String {
    let (n, unit) = if secs < 60 { (secs.max(1), 's') } else { (secs.div_ceil(60), 'm') };
    let word = match (unit, locale, n) {
        ('s', Locale::Fr, 1) => "seconde",
        ('s', Locale::Fr, _) => "secondes",
        ('s', Locale::En, 1) => "second",
        ('s', Locale::En, _) => "seconds",
        (_, _, 1) => "minute",
        _ => "minutes",
    };
    format!("{n}\u{a0}{word}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_is_said_as_sent_in_the_page_language() {
        assert_eq!(wait_text(1, Locale::Fr), "1\u{a0}seconde");
        assert_eq!(wait_text(4, Locale::Fr), "4\u{a0}secondes");
        assert_eq!(wait_text(16, Locale::En), "16\u{a0}seconds");
        assert_eq!(wait_text(60, Locale::En), "1\u{a0}minute");
        assert_eq!(wait_text(61, Locale::Fr), "2\u{a0}minutes");
        assert_eq!(
            error_text("rate_limited", Some(8), Locale::En),
            "Too many failed attempts. Try again in 8\u{a0}seconds."
        );
        assert_eq!(
            error_text("rate_limited", Some(300), Locale::Fr),
            "Trop d'essais infructueux. Réessayez dans 5\u{a0}minutes."
        );
    }
}
