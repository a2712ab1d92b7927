//! Recursive-descent parser over the token vector. It never fails: every problem becomes a
//! [`Diagnostic`] and the parser resynchronises at the next `;` or `}`.

use crate::lex::{Tok, Token, lex};

/// A position in the PTX text (1-based line and column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    /// 1-based line.
    pub line: u32,
    /// 1-based column (in bytes).
    pub col: u32,
}

/// A parse problem: where, what text, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Where the offending text starts.
    pub pos: Pos,
    /// The offending text (one token, or the end of input).
    pub text: String,
    /// Why it is wrong.
    pub message: String,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}: {} (at `{}`)",
            self.pos.line, self.pos.col, self.message, self.text
        )
    }
}

/// State space of a variable declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateSpace {
    /// `.global`
    Global,
    /// `.shared`
    Shared,
    /// `.const`
    Const,
    /// `.local`
    Local,
    /// `.param`
    Param,
}

/// A variable declaration (`.shared .align 4 .b8 t[4224];`).
#[derive(Debug, Clone, PartialEq)]
pub struct VarDecl {
    /// State space.
    pub space: StateSpace,
    /// `.align N` (0 when absent).
    pub align: u32,
    /// Element type without the dot (`b8`, `u32`, `f32`).
    pub ty: String,
    /// `.v2`/`.v4` element vector width (1 when absent).
    pub vec: u32,
    /// Name.
    pub name: String,
    /// Array dimensions; `None` for `[]`.
    pub dims: Vec<Option<u64>>,
    /// Initialiser values, flattened.
    pub init: Vec<Operand>,
    /// Declared `.extern`.
    pub is_extern: bool,
    /// Where the name is.
    pub pos: Pos,
}

/// A register declaration (`.reg .b32 %r<11>;` declares `%r0`..`%r10`).
#[derive(Debug, Clone, PartialEq)]
pub struct RegDecl {
    /// Type without the dot.
    pub ty: String,
    /// `.v2`/`.v4` (1 when absent).
    pub vec: u32,
    /// Each name with its optional `<count>`.
    pub names: Vec<(String, Option<u32>)>,
    /// Where the declaration is.
    pub pos: Pos,
}

/// An operand as written.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// A register, symbol, label or special register name.
    Name(String),
    /// `!%p`
    NotName(String),
    /// Integer literal (negative values wrap).
    Int(u64),
    /// `0fXXXXXXXX`
    F32(u32),
    /// `0dXXXXXXXXXXXXXXXX` or a decimal float literal.
    F64(u64),
    /// `[base+off]`; base is a name or `None` for an absolute address.
    Addr {
        /// Register or symbol; `None` for `[imm]`.
        base: Option<String>,
        /// Byte offset.
        off: i64,
    },
    /// `{a, b, c, d}`
    Vector(Vec<Operand>),
    /// `(a, b)` in `call`.
    List(Vec<Operand>),
    /// `%p|%q`
    Pair(String, String),
    /// `_`
    Sink,
}

/// One instruction.
#[derive(Debug, Clone, PartialEq)]
pub struct Instruction {
    /// Guard predicate: (negated, name).
    pub pred: Option<(bool, String)>,
    /// Full dotted opcode (`ld.shared.u32`).
    pub opcode: String,
    /// Operands.
    pub operands: Vec<Operand>,
    /// Where the instruction starts.
    pub pos: Pos,
    /// The instruction text as written (without the `;`).
    pub text: String,
}

/// A statement of a function body.
#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    /// `.reg`
    Reg(RegDecl),
    /// `.shared`/`.local`/`.param`/... inside a body.
    Var(VarDecl),
    /// `name:`
    Label(String, Pos),
    /// An instruction.
    Inst(Instruction),
    /// `.loc file line col` (`, inlined_at file line col`: the place the function holding this
    /// line was inlined at).
    Loc {
        /// File index.
        file: u32,
        /// Line.
        line: u32,
        /// Column.
        col: u32,
        /// The call site `(file, line, col)` the code was inlined at, when it was.
        inlined_at: Option<(u32, u32, u32)>,
    },
    /// `{` opening a nested scope.
    Open,
    /// `}` closing a nested scope.
    Close,
}

/// A kernel (`.entry`) or device function (`.func`).
#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    /// Name.
    pub name: String,
    /// `.entry` (a kernel) rather than `.func`.
    pub is_entry: bool,
    /// Parameters in order.
    pub params: Vec<VarDecl>,
    /// Return parameters (`.func (.param .b32 r) f(...)`).
    pub rets: Vec<VarDecl>,
    /// Body; `None` for a prototype.
    pub body: Option<Vec<Stmt>>,
    /// `.reqntid`/`.maxntid` values when given.
    pub reqntid: Option<[u32; 3]>,
    /// `.maxntid`
    pub maxntid: Option<[u32; 3]>,
    /// `.reqnctapercluster` (what `__cluster_dims__` writes): the cluster dimensions the kernel
    /// must be launched with.
    pub reqnctapercluster: Option<[u32; 3]>,
    /// `.explicitcluster`: the kernel must be launched with cluster dimensions.
    pub explicitcluster: bool,
    /// Where the name is.
    pub pos: Pos,
}

/// A parsed PTX module.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Module {
    /// `.version`
    pub version: Option<String>,
    /// `.target` (first value, e.g. `sm_90`).
    pub target: Option<String>,
    /// `.target ..., debug`: built with `-G` (ptxas then optimises nothing, contracts nothing).
    pub debug: bool,
    /// `.address_size` (64 when absent).
    pub address_size: u32,
    /// `.file` entries: (index, name).
    pub files: Vec<(u32, String)>,
    /// Module-scope variables.
    pub globals: Vec<VarDecl>,
    /// Functions and kernels in order.
    pub functions: Vec<Function>,
}

struct Parser<'s> {
    src: &'s str,
    toks: Vec<Token>,
    i: usize,
    line_starts: Vec<u32>,
    diags: Vec<Diagnostic>,
}

type PResult<T> = Result<T, ()>;

/// Parses PTX text. Returns the module (with whatever could be parsed) and all diagnostics; an empty
/// diagnostic list means the text parsed completely. Never panics.
pub fn parse(src: &str) -> (Module, Vec<Diagnostic>) {
    let mut line_starts = vec![0u32];
    for (i, b) in src.bytes().enumerate() {
        if b == b'\n' {
            line_starts.push(i as u32 + 1);
        }
    }
    let mut p = Parser {
        src,
        toks: lex(src),
        i: 0,
        line_starts,
        diags: Vec::new(),
    };
    let m = p.module();
    (m, p.diags)
}

fn is_vec(d: &str) -> Option<u32> {
    match d {
        ".v2" => Some(2),
        ".v4" => Some(4),
        ".v8" => Some(8),
        _ => None,
    }
}

impl<'s> Parser<'s> {
    fn peek(&self) -> Option<Tok> {
        self.toks.get(self.i).map(|t| t.tok)
    }
    fn peek_at(&self, k: usize) -> Option<Tok> {
        self.toks.get(self.i + k).map(|t| t.tok)
    }
    fn text_at(&self, i: usize) -> &'s str {
        match self.toks.get(i) {
            Some(t) => &self.src[t.start as usize..t.end as usize],
            None => "",
        }
    }
    fn text(&self) -> &'s str {
        self.text_at(self.i)
    }
    fn pos_of(&self, off: u32) -> Pos {
        let line = self.line_starts.partition_point(|&s| s <= off);
        let ls = self.line_starts[line - 1];
        Pos {
            line: line as u32,
            col: off - ls + 1,
        }
    }
    fn pos(&self) -> Pos {
        match self.toks.get(self.i) {
            Some(t) => self.pos_of(t.start),
            None => self.pos_of(self.src.len() as u32),
        }
    }
    fn bump(&mut self) -> &'s str {
        let t = self.text();
        self.i += 1;
        t
    }
    fn eat(&mut self, t: Tok) -> bool {
        if self.peek() == Some(t) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn err<T>(&mut self, msg: impl Into<String>) -> PResult<T> {
        let text = if self.i < self.toks.len() {
            self.text().to_string()
        } else {
            "<end of input>".to_string()
        };
        self.diags.push(Diagnostic {
            pos: self.pos(),
            text,
            message: msg.into(),
        });
        Err(())
    }
    fn expect(&mut self, t: Tok, what: &str) -> PResult<()> {
        if self.eat(t) {
            Ok(())
        } else {
            self.err(format!("expected {what}"))
        }
    }
    fn ident(&mut self, what: &str) -> PResult<String> {
        if self.peek() == Some(Tok::Ident) {
            Ok(self.bump().to_string())
        } else {
            self.err(format!("expected {what}"))
        }
    }
    fn uint(&mut self) -> PResult<u64> {
        let t = self.text();
        let v = match self.peek() {
            Some(Tok::Dec) => t.trim_end_matches('U').parse::<u64>().ok(),
            Some(Tok::Hex) => u64::from_str_radix(t[2..].trim_end_matches('U'), 16).ok(),
            _ => return self.err("expected an integer"),
        };
        match v {
            Some(v) => {
                self.i += 1;
                Ok(v)
            }
            None => self.err("integer out of range"),
        }
    }
    /// Skips to just after the next `;` at this nesting level (or before a `}`).
    fn recover(&mut self) {
        let mut depth = 0i32;
        while let Some(t) = self.peek() {
            match t {
                Tok::Semi if depth <= 0 => {
                    self.i += 1;
                    return;
                }
                Tok::LBrace => depth += 1,
                Tok::RBrace => {
                    if depth <= 0 {
                        return;
                    }
                    depth -= 1;
                }
                _ => {}
            }
            self.i += 1;
        }
    }
    fn skip_braced(&mut self) {
        // at `{`
        let mut depth = 0i32;
        while let Some(t) = self.peek() {
            self.i += 1;
            match t {
                Tok::LBrace => depth += 1,
                Tok::RBrace => {
                    depth -= 1;
                    if depth <= 0 {
                        return;
                    }
                }
                _ => {}
            }
        }
    }

    fn module(&mut self) -> Module {
        let mut m = Module {
            address_size: 64,
            ..Module::default()
        };
        while self.peek().is_some() {
            let start = self.i;
            if self.top_item(&mut m).is_err() {
                if self.i == start {
                    self.i += 1;
                }
                self.recover();
                if self.peek() == Some(Tok::RBrace) {
                    self.i += 1;
                }
            }
        }
        m
    }

    fn top_item(&mut self, m: &mut Module) -> PResult<()> {
        if self.peek() != Some(Tok::Directive) {
            return self.err("expected a directive at module scope");
        }
        match self.text() {
            ".version" => {
                self.i += 1;
                if matches!(self.peek(), Some(Tok::Float | Tok::Dec)) {
                    m.version = Some(self.bump().to_string());
                    Ok(())
                } else {
                    self.err("expected a version number")
                }
            }
            ".target" => {
                self.i += 1;
                m.target = Some(self.ident("a target name")?);
                while self.eat(Tok::Comma) {
                    if self.ident("a target option")? == "debug" {
                        m.debug = true;
                    }
                }
                Ok(())
            }
            ".address_size" => {
                self.i += 1;
                m.address_size = self.uint()? as u32;
                Ok(())
            }
            ".file" => {
                self.i += 1;
                let idx = self.uint()? as u32;
                if self.peek() != Some(Tok::Str) {
                    return self.err("expected a file name string");
                }
                let s = self.bump();
                let name = s[1..s.len() - 1].to_string();
                while self.eat(Tok::Comma) {
                    self.uint()?;
                }
                m.files.push((idx, name));
                Ok(())
            }
            ".section" => {
                self.i += 1;
                while self.peek().is_some() && self.peek() != Some(Tok::LBrace) {
                    self.i += 1;
                }
                self.skip_braced();
                Ok(())
            }
            ".pragma" => {
                self.i += 1;
                self.recover();
                Ok(())
            }
            _ => self.decl(m),
        }
    }

    fn decl(&mut self, m: &mut Module) -> PResult<()> {
        let mut is_extern = false;
        loop {
            match self.text() {
                ".visible" | ".weak" | ".common" => self.i += 1,
                ".extern" => {
                    is_extern = true;
                    self.i += 1
                }
                _ => break,
            }
        }
        match self.text() {
            ".entry" | ".func" => {
                let f = self.function()?;
                m.functions.push(f);
                Ok(())
            }
            ".global" | ".shared" | ".const" | ".local" => {
                let v = self.var_decl(is_extern)?;
                self.expect(Tok::Semi, "`;`")?;
                m.globals.push(v);
                Ok(())
            }
            _ => self.err("unknown module-scope directive"),
        }
    }

    fn space(&mut self) -> PResult<StateSpace> {
        let s = match self.text() {
            ".global" => StateSpace::Global,
            ".shared" => StateSpace::Shared,
            ".const" => StateSpace::Const,
            ".local" => StateSpace::Local,
            ".param" => StateSpace::Param,
            _ => return self.err("expected a state space"),
        };
        self.i += 1;
        Ok(s)
    }

    /// `<space> [.attribute(.managed)] [.align N] [.ptr ...] [.vN] .type name [dims] [= init]` (no `;`).
    fn var_decl(&mut self, is_extern: bool) -> PResult<VarDecl> {
        let space = self.space()?;
        let mut align = 0;
        let mut vec = 1;
        let mut ty = None;
        // `.ptr [.space] [.align N]` on a kernel parameter describes what the pointer points to:
        // that `.align` is the pointee's, not the parameter's (Triton writes
        // `.param .u64 .ptr .global .align 1 p`, which the driver still places 8-aligned)
        let mut after_ptr = false;
        while self.peek() == Some(Tok::Directive) {
            let d = self.bump();
            match d {
                ".align" if after_ptr => {
                    self.uint()?;
                }
                ".align" => align = self.uint()? as u32,
                ".ptr" => after_ptr = true,
                // `.attribute(.managed)`: a `__managed__` variable, placed as any global variable
                // (the runtime keeps the host's copy in step)
                ".attribute" => {
                    self.expect(Tok::LParen, "`(`")?;
                    while self.peek() == Some(Tok::Directive) || self.peek() == Some(Tok::Comma) {
                        self.bump();
                    }
                    self.expect(Tok::RParen, "`)`")?;
                }
                ".global" | ".shared" | ".const" | ".local" => {}
                _ => {
                    if let Some(v) = is_vec(d) {
                        vec = v
                    } else {
                        ty = Some(d[1..].to_string())
                    }
                }
            }
        }
        let Some(ty) = ty else {
            return self.err("expected a type in the declaration");
        };
        let pos = self.pos();
        let name = self.ident("a variable name")?;
        let mut dims = Vec::new();
        while self.eat(Tok::LBracket) {
            if self.eat(Tok::RBracket) {
                dims.push(None);
            } else {
                dims.push(Some(self.uint()?));
                self.expect(Tok::RBracket, "`]`")?;
            }
        }
        let mut init = Vec::new();
        if self.eat(Tok::Eq) {
            self.init_list(&mut init)?;
        }
        Ok(VarDecl {
            space,
            align,
            ty,
            vec,
            name,
            dims,
            init,
            is_extern,
            pos,
        })
    }

    fn init_list(&mut self, out: &mut Vec<Operand>) -> PResult<()> {
        if self.eat(Tok::LBrace) {
            loop {
                self.init_list(out)?;
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RBrace, "`}`")
        } else {
            let o = self.operand()?;
            out.push(o);
            Ok(())
        }
    }

    fn param_list(&mut self) -> PResult<Vec<VarDecl>> {
        let mut v = Vec::new();
        self.expect(Tok::LParen, "`(`")?;
        if self.eat(Tok::RParen) {
            return Ok(v);
        }
        loop {
            if self.text() == ".reg" {
                return self.err("register parameters are not supported");
            }
            v.push(self.var_decl(false)?);
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RParen, "`)`")?;
        Ok(v)
    }

    fn dims3(&mut self) -> PResult<[u32; 3]> {
        let mut d = [1u32; 3];
        d[0] = self.uint()? as u32;
        for v in d.iter_mut().skip(1) {
            if !self.eat(Tok::Comma) {
                break;
            }
            *v = self.uint()? as u32;
        }
        Ok(d)
    }

    fn function(&mut self) -> PResult<Function> {
        let is_entry = self.bump() == ".entry";
        let mut rets = Vec::new();
        if self.peek() == Some(Tok::LParen) {
            rets = self.param_list()?;
        }
        let pos = self.pos();
        let name = self.ident("a function name")?;
        let mut params = Vec::new();
        if self.peek() == Some(Tok::LParen) {
            params = self.param_list()?;
        }
        let mut f = Function {
            name,
            is_entry,
            params,
            rets,
            body: None,
            reqntid: None,
            maxntid: None,
            reqnctapercluster: None,
            explicitcluster: false,
            pos,
        };
        loop {
            match (self.peek(), self.text()) {
                (Some(Tok::Directive), ".maxntid") => {
                    self.i += 1;
                    f.maxntid = Some(self.dims3()?);
                }
                (Some(Tok::Directive), ".reqntid") => {
                    self.i += 1;
                    f.reqntid = Some(self.dims3()?);
                }
                (Some(Tok::Directive), ".reqnctapercluster") => {
                    self.i += 1;
                    f.reqnctapercluster = Some(self.dims3()?);
                }
                (Some(Tok::Directive), ".explicitcluster") => {
                    self.i += 1;
                    f.explicitcluster = true;
                }
                (
                    Some(Tok::Directive),
                    ".minnctapersm" | ".maxnreg" | ".maxnctapersm" | ".maxclusterrank",
                ) => {
                    self.i += 1;
                    self.uint()?;
                }
                (Some(Tok::Directive), ".noreturn") => self.i += 1,
                (Some(Tok::Directive), ".pragma") => {
                    self.i += 1;
                    self.recover();
                }
                _ => break,
            }
        }
        if self.eat(Tok::Semi) {
            return Ok(f);
        }
        if self.peek() != Some(Tok::LBrace) {
            return self.err("expected `{` or `;` after the function header");
        }
        self.i += 1;
        let mut body = Vec::new();
        let mut depth = 1;
        while depth > 0 {
            let Some(t) = self.peek() else {
                let _ = self.err::<()>("unterminated function body");
                break;
            };
            match t {
                Tok::LBrace => {
                    self.i += 1;
                    depth += 1;
                    body.push(Stmt::Open);
                }
                Tok::RBrace => {
                    self.i += 1;
                    depth -= 1;
                    if depth > 0 {
                        body.push(Stmt::Close);
                    }
                }
                _ => {
                    let start = self.i;
                    if self.stmt(&mut body).is_err() {
                        if self.i == start {
                            self.i += 1;
                        }
                        self.recover();
                    }
                }
            }
        }
        f.body = Some(body);
        Ok(f)
    }

    fn stmt(&mut self, body: &mut Vec<Stmt>) -> PResult<()> {
        match self.peek() {
            Some(Tok::Directive) => {
                let pos = self.pos();
                match self.text() {
                    ".reg" => {
                        self.i += 1;
                        let mut vec = 1;
                        let mut ty = None;
                        while self.peek() == Some(Tok::Directive) {
                            let d = self.bump();
                            if let Some(v) = is_vec(d) {
                                vec = v;
                            } else {
                                ty = Some(d[1..].to_string());
                            }
                        }
                        let Some(ty) = ty else {
                            return self.err("expected a register type");
                        };
                        let mut names = Vec::new();
                        loop {
                            let n = self.ident("a register name")?;
                            let mut count = None;
                            if self.eat(Tok::Lt) {
                                count = Some(self.uint()? as u32);
                                self.expect(Tok::Gt, "`>`")?;
                            }
                            names.push((n, count));
                            if !self.eat(Tok::Comma) {
                                break;
                            }
                        }
                        self.expect(Tok::Semi, "`;`")?;
                        body.push(Stmt::Reg(RegDecl { ty, vec, names, pos }));
                        Ok(())
                    }
                    ".shared" | ".local" | ".param" | ".const" | ".global" => {
                        let v = self.var_decl(false)?;
                        self.expect(Tok::Semi, "`;`")?;
                        body.push(Stmt::Var(v));
                        Ok(())
                    }
                    ".loc" => {
                        self.i += 1;
                        let file = self.uint()? as u32;
                        let line = self.uint()? as u32;
                        let col = self.uint()? as u32;
                        let mut inlined_at = None;
                        while self.peek() == Some(Tok::Comma) {
                            self.i += 1;
                            let k = self.ident("`function_name` or `inlined_at`")?;
                            if k == "inlined_at" {
                                let f = self.uint()? as u32;
                                let l = self.uint()? as u32;
                                let c = self.uint()? as u32;
                                inlined_at = Some((f, l, c));
                            } else {
                                self.bump();
                                if self.eat(Tok::Plus) {
                                    self.uint()?;
                                }
                            }
                        }
                        body.push(Stmt::Loc {
                            file,
                            line,
                            col,
                            inlined_at,
                        });
                        Ok(())
                    }
                    ".pragma" => {
                        self.i += 1;
                        self.recover();
                        Ok(())
                    }
                    ".maxntid" | ".reqntid" => {
                        self.i += 1;
                        self.dims3()?;
                        Ok(())
                    }
                    _ => self.err("unknown directive in a function body"),
                }
            }
            Some(Tok::Ident)
                if self.peek_at(1) == Some(Tok::Colon)
                    && self.peek_at(2) == Some(Tok::Directive)
                    && self.text_at(self.i + 2) == ".callprototype" =>
            {
                // `proto: .callprototype (.param .b32 _) _ (.param .b64 _, ...);`: the signature an
                // indirect `call` names last. The callees are matched by their own parameter lists,
                // so only the declaration's syntax is checked here.
                self.i += 3;
                let mut depth = 0i32;
                loop {
                    match self.peek() {
                        Some(Tok::LParen) => depth += 1,
                        Some(Tok::RParen) => depth -= 1,
                        Some(Tok::Semi) if depth == 0 => break,
                        None | Some(Tok::LBrace | Tok::RBrace) => {
                            return self.err("expected `;` to end the `.callprototype`");
                        }
                        _ => {}
                    }
                    self.i += 1;
                }
                self.expect(Tok::Semi, "`;`")?;
                Ok(())
            }
            Some(Tok::Ident) if self.peek_at(1) == Some(Tok::Colon) => {
                let pos = self.pos();
                let n = self.bump().to_string();
                self.i += 1;
                body.push(Stmt::Label(n, pos));
                Ok(())
            }
            Some(Tok::Ident | Tok::At) => {
                let inst = self.instruction()?;
                body.push(Stmt::Inst(inst));
                Ok(())
            }
            _ => self.err("expected an instruction, label or directive"),
        }
    }

    fn instruction(&mut self) -> PResult<Instruction> {
        let start_tok = self.toks[self.i];
        let pos = self.pos();
        let mut pred = None;
        if self.eat(Tok::At) {
            let neg = self.eat(Tok::Bang);
            pred = Some((neg, self.ident("a predicate register")?));
        }
        let opcode = self.ident("an opcode")?;
        let mut operands = Vec::new();
        if !self.eat(Tok::Semi) {
            loop {
                operands.push(self.operand()?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            if self.peek() != Some(Tok::Semi) {
                return self.err("expected `,` or `;` after an operand");
            }
            self.i += 1;
        }
        let end = self.toks[self.i - 1].start as usize;
        let text = self.src[start_tok.start as usize..end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        Ok(Instruction {
            pred,
            opcode,
            operands,
            pos,
            text,
        })
    }

    fn signed_int(&mut self) -> PResult<i64> {
        let neg = self.eat(Tok::Minus);
        let v = self.uint()? as i64;
        Ok(if neg { v.wrapping_neg() } else { v })
    }

    fn operand(&mut self) -> PResult<Operand> {
        match self.peek() {
            Some(Tok::Ident) => {
                let n = self.bump().to_string();
                if n == "_" {
                    // `_|%p` (elect.sync's unused lane id): the sink named as a pair's first half
                    if self.eat(Tok::Pipe) {
                        let m = self.ident("a predicate after `|`")?;
                        return Ok(Operand::Pair(n, m));
                    }
                    return Ok(Operand::Sink);
                }
                if n == "WARP_SZ" {
                    // The PTX constant for the warp size (`warpSize` in CUDA C++): 32 on every target.
                    return Ok(Operand::Int(32));
                }
                if self.eat(Tok::Pipe) {
                    let m = self.ident("a predicate after `|`")?;
                    return Ok(Operand::Pair(n, m));
                }
                if self.peek() == Some(Tok::Plus) {
                    // sym+imm outside brackets
                    self.i += 1;
                    let off = self.signed_int()?;
                    return Ok(Operand::Addr { base: Some(n), off });
                }
                Ok(Operand::Name(n))
            }
            Some(Tok::Bang) => {
                self.i += 1;
                Ok(Operand::NotName(self.ident("a predicate after `!`")?))
            }
            Some(Tok::Minus) => {
                self.i += 1;
                match self.peek() {
                    Some(Tok::Float) => {
                        let v: f64 = self.bump().parse().unwrap_or(0.0);
                        Ok(Operand::F64((-v).to_bits()))
                    }
                    _ => Ok(Operand::Int((self.uint()? as i64).wrapping_neg() as u64)),
                }
            }
            Some(Tok::Dec | Tok::Hex) => Ok(Operand::Int(self.uint()?)),
            Some(Tok::F32Bits) => {
                let t = self.bump();
                match u32::from_str_radix(&t[2..], 16) {
                    Ok(v) => Ok(Operand::F32(v)),
                    Err(_) => self.err("bad f32 literal"),
                }
            }
            Some(Tok::F64Bits) => {
                let t = self.bump();
                match u64::from_str_radix(&t[2..], 16) {
                    Ok(v) => Ok(Operand::F64(v)),
                    Err(_) => self.err("bad f64 literal"),
                }
            }
            Some(Tok::Float) => {
                let t = self.bump();
                match t.parse::<f64>() {
                    Ok(v) => Ok(Operand::F64(v.to_bits())),
                    Err(_) => self.err("bad float literal"),
                }
            }
            Some(Tok::LBracket) => {
                self.i += 1;
                let mut base = None;
                let mut off = 0i64;
                match self.peek() {
                    Some(Tok::Ident) => base = Some(self.bump().to_string()),
                    Some(Tok::Dec | Tok::Hex | Tok::Minus) => off = self.signed_int()?,
                    _ => return self.err("expected an address"),
                }
                if base.is_some() && (self.eat(Tok::Plus) || self.peek() == Some(Tok::Minus)) {
                    off = self.signed_int()?;
                }
                if self.eat(Tok::Comma) {
                    // `[tensorMap, {coordinates}]` of the tensor copies: the address, then the rest
                    let mut v = vec![Operand::Addr { base, off }];
                    loop {
                        v.push(self.operand()?);
                        if !self.eat(Tok::Comma) {
                            break;
                        }
                    }
                    self.expect(Tok::RBracket, "`]`")?;
                    return Ok(Operand::List(v));
                }
                self.expect(Tok::RBracket, "`]`")?;
                Ok(Operand::Addr { base, off })
            }
            Some(Tok::LBrace) => {
                self.i += 1;
                let mut v = Vec::new();
                loop {
                    v.push(self.operand()?);
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
                self.expect(Tok::RBrace, "`}`")?;
                Ok(Operand::Vector(v))
            }
            Some(Tok::LParen) => {
                self.i += 1;
                let mut v = Vec::new();
                if self.eat(Tok::RParen) {
                    return Ok(Operand::List(v));
                }
                loop {
                    v.push(self.operand()?);
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
                self.expect(Tok::RParen, "`)`")?;
                Ok(Operand::List(v))
            }
            _ => self.err("expected an operand"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimal_kernel() {
        let src = ".version 9.5\n.target sm_90\n.address_size 64\n\t// .globl\tk\n.visible .entry k(\n\t.param .u64 .ptr .align 1 k_param_0\n)\n.maxntid 256, 1, 1\n{\n\t.reg .b32 %r<3>;\n\t.shared .align 4 .b8 t[128];\n$L__BB0_1:\n\t@!%p1 bra $L__BB0_1;\n\tld.shared.v2.u32 {%r1, %r2}, [t+8];\n\tmov.u32 %r1, t;\n\tsetp.lt.s32 %p1|%p2, %r1, -4;\n\tret;\n}\n.file 1 \"k.cu\"\n";
        let (m, d) = parse(src);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(m.target.as_deref(), Some("sm_90"));
        let f = &m.functions[0];
        assert!(f.is_entry);
        assert_eq!(f.params[0].name, "k_param_0");
        assert_eq!(f.maxntid, Some([256, 1, 1]));
        let body = f.body.as_ref().unwrap();
        let insts: Vec<&Instruction> = body
            .iter()
            .filter_map(|s| match s {
                Stmt::Inst(i) => Some(i),
                _ => None,
            })
            .collect();
        assert_eq!(insts.len(), 5);
        assert_eq!(insts[0].pred, Some((true, "%p1".into())));
        assert_eq!(insts[0].pos, Pos { line: 13, col: 2 });
        assert_eq!(insts[1].text, "ld.shared.v2.u32 {%r1, %r2}, [t+8]");
        assert_eq!(
            insts[1].operands[1],
            Operand::Addr {
                base: Some("t".into()),
                off: 8
            }
        );
        assert_eq!(insts[3].operands[0], Operand::Pair("%p1".into(), "%p2".into()));
        assert_eq!(insts[3].operands[2], Operand::Int((-4i64) as u64));
        assert_eq!(m.files, vec![(1, "k.cu".to_string())]);
    }

    #[test]
    fn errors_have_positions_and_recover() {
        let src = ".version 9.5\n.visible .entry k()\n{\n add.s32 %r1, , 3;\n # bad;\n ret;\n}\n";
        let (m, d) = parse(src);
        assert_eq!(d.len(), 2, "{d:?}");
        assert_eq!(d[0].pos, Pos { line: 4, col: 15 });
        assert_eq!(d[0].text, ",");
        assert_eq!(d[1].pos.line, 5);
        assert_eq!(d[1].text, "#");
        // the `ret` after the errors still parsed
        let body = m.functions[0].body.as_ref().unwrap();
        assert!(matches!(body.last(), Some(Stmt::Inst(i)) if i.opcode == "ret"));
    }

    #[test]
    fn truncated_input_never_panics() {
        let src = ".visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<2>;\n ld.param.u64 %rd1, [p";
        for n in 0..src.len() {
            let _ = parse(&src[..n]);
        }
        let (_, d) = parse(src);
        assert!(!d.is_empty());
    }
}
