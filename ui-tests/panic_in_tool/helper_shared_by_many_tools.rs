//@ dep: rmcp = "2.1"
// A panic in a helper several tools call is one site: the finding names the tools it escapes
// from (a tool that calls the helper under `catch_unwind` is not one of them).
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

pub struct Units;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Amount {
    pub text: String,
}

fn parse_amount(text: &str) -> f64 {
    text.trim().parse().expect("a number")
}

#[tool_router]
impl Units {
    #[tool(description = "Metres to feet")]
    async fn feet(&self, Parameters(a): Parameters<Amount>) -> String {
        (parse_amount(&a.text) * 3.28084).to_string()
    }

    #[tool(description = "Kilograms to pounds")]
    async fn pounds(&self, Parameters(a): Parameters<Amount>) -> String {
        (parse_amount(&a.text) * 2.20462).to_string()
    }

    #[tool(description = "Litres to gallons")]
    async fn gallons(&self, Parameters(a): Parameters<Amount>) -> String {
        (parse_amount(&a.text) * 0.264172).to_string()
    }

    #[tool(description = "Celsius to Fahrenheit")]
    async fn fahrenheit(&self, Parameters(a): Parameters<Amount>) -> String {
        (parse_amount(&a.text) * 1.8 + 32.0).to_string()
    }

    #[tool(description = "Kilometres to miles")]
    async fn miles(&self, Parameters(a): Parameters<Amount>) -> String {
        (parse_amount(&a.text) * 0.621371).to_string()
    }

    #[tool(description = "Grams to ounces, guarded")]
    async fn ounces(&self, Parameters(a): Parameters<Amount>) -> String {
        std::panic::catch_unwind(|| parse_amount(&a.text) * 0.035274)
            .map_or_else(|_| "not a number".to_string(), |v| v.to_string())
    }
}
