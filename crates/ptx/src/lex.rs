//! The logos lexer. Opcodes with their modifiers (`ld.shared.u32`) and special registers (`%tid.x`)
//! lex as one [`Tok::Ident`]; directives (`.reg`, `.u32`) lex as [`Tok::Directive`].

use logos::Logos;

/// A PTX token kind. The token's text is the source slice of its span.
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n\f]+")]
#[logos(skip(r"//[^\n]*", allow_greedy = true))]
#[logos(skip r"/\*([^*]|\*+[^*/])*\*+/")]
pub enum Tok {
    /// `.name`
    #[regex(r"\.[A-Za-z_][A-Za-z0-9_]*")]
    Directive,
    /// Identifier, register, label, or dotted opcode.
    #[regex(r"[A-Za-z_$%][A-Za-z0-9_$]*((\.|::)[A-Za-z0-9_$]+)*")]
    Ident,
    /// `0x1F`, optionally with a `U` suffix.
    #[regex(r"0[xX][0-9A-Fa-f]+U?")]
    Hex,
    /// `123`, optionally with a `U` suffix.
    #[regex(r"[0-9]+U?")]
    Dec,
    /// `0f3F800000`: an f32 given by its bits.
    #[regex(r"0[fF][0-9A-Fa-f]{8}")]
    F32Bits,
    /// `0d3FF0000000000000`: an f64 given by its bits.
    #[regex(r"0[dD][0-9A-Fa-f]{16}")]
    F64Bits,
    /// `1.5`, `9.5`, `1.0e3`.
    #[regex(r"[0-9]+\.[0-9]*([eE][+-]?[0-9]+)?")]
    Float,
    /// `"text"`
    #[regex(r#""[^"\n]*""#)]
    Str,
    /// `,`
    #[token(",")]
    Comma,
    /// `;`
    #[token(";")]
    Semi,
    /// `:`
    #[token(":")]
    Colon,
    /// `[`
    #[token("[")]
    LBracket,
    /// `]`
    #[token("]")]
    RBracket,
    /// `{`
    #[token("{")]
    LBrace,
    /// `}`
    #[token("}")]
    RBrace,
    /// `(`
    #[token("(")]
    LParen,
    /// `)`
    #[token(")")]
    RParen,
    /// `+`
    #[token("+")]
    Plus,
    /// `-`
    #[token("-")]
    Minus,
    /// `<`
    #[token("<")]
    Lt,
    /// `>`
    #[token(">")]
    Gt,
    /// `@`
    #[token("@")]
    At,
    /// `!`
    #[token("!")]
    Bang,
    /// `|`
    #[token("|")]
    Pipe,
    /// `=`
    #[token("=")]
    Eq,
    /// A character no rule accepts (kept so the parser can report it).
    Error,
}

/// One token with its byte span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// Kind.
    pub tok: Tok,
    /// Byte offset of the first character.
    pub start: u32,
    /// Byte offset one past the last character.
    pub end: u32,
}

/// Lexes the whole text. Unknown characters become [`Tok::Error`] tokens; lexing never fails.
pub fn lex(src: &str) -> Vec<Token> {
    let mut lexer = Tok::lexer(src);
    let mut out = Vec::new();
    while let Some(r) = lexer.next() {
        let span = lexer.span();
        out.push(Token {
            tok: r.unwrap_or(Tok::Error),
            start: span.start as u32,
            end: span.end as u32,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<Tok> {
        lex(s).into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn opcode_is_one_ident_and_comments_skip() {
        assert_eq!(
            kinds("ld.shared.u32 %r1, [%rd2+-4]; // c\n/* x */ .reg"),
            vec![
                Tok::Ident,
                Tok::Ident,
                Tok::Comma,
                Tok::LBracket,
                Tok::Ident,
                Tok::Plus,
                Tok::Minus,
                Tok::Dec,
                Tok::RBracket,
                Tok::Semi,
                Tok::Directive
            ]
        );
    }

    #[test]
    fn numbers() {
        assert_eq!(
            kinds("0f3F800000 0d3FF0000000000000 0x1fU 12 9.5"),
            vec![Tok::F32Bits, Tok::F64Bits, Tok::Hex, Tok::Dec, Tok::Float]
        );
    }

    #[test]
    fn bad_char_is_error_token() {
        assert_eq!(kinds("a # b"), vec![Tok::Ident, Tok::Error, Tok::Ident]);
    }
}
