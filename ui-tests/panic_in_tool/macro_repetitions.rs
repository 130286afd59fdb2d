//@ dep: rmcp = "3.11"
// A crate macro with a repetition is written once per item it is given: `all_numbers!(a, b)`
// is `(a.parse::<i64>().unwrap(), b.parse::<i64>().unwrap())`, so the `unwrap` of its body
// runs on the tool's arguments (reported once, at the macro's code). Items a macro defines
// through a repetition exist too: the helper fns written by `doublers!` are called by the
// tool, and the `expect` in their body is reported; so does a method of an `impl $ty { .. }`
// a macro writes for a type it is given.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::tool;
use rmcp::tool_router;

macro_rules! all_numbers {
    ($($text:expr),*) => { ($($text.parse::<i64>().unwrap()),*) };
}

macro_rules! doublers {
    ($($name:ident;)+) => {
        $(fn $name(text: &str) -> i64 { text.parse::<i64>().expect("a number") * 2 })+
    };
}

doublers! { double_first; double_second; }

macro_rules! first_char_of {
    ($ty:ty) => {
        impl $ty {
            fn first_char(&self, text: &str) -> char {
                text.chars().next().unwrap()
            }
        }
    };
}

first_char_of!(Calc);

pub struct Calc;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Pair {
    pub left: String,
    pub right: String,
}

#[tool_router]
impl Calc {
    #[tool(description = "Add two numbers given as text")]
    async fn add(&self, Parameters(pair): Parameters<Pair>) -> Result<String, String> {
        let (a, b) = all_numbers!(pair.left, pair.right);
        let sign = self.first_char(&pair.left);
        Ok(format!("{sign}{}", a + b + double_first(&pair.left) + double_second(&pair.right)))
    }
}
