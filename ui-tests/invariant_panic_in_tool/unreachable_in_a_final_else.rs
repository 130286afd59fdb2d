//@ dep: rmcp = "3.11"
//@ manifest: [package.metadata.mcp-lint.lints]
//@ manifest: invariant_panic_in_tool = "warn"
// `unreachable!()` in the last `else` of an `if .. else if ..` chain asserts that the tests
// before it cover every value, as it does in a `match`'s catch-all arm: an asserted invariant
// (this opt-in lint), whichever of the two forms the author wrote. A `panic!` there is not.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

pub struct Shapes;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Shape {
    pub kind: String,
    pub size: f64,
}

#[tool_router]
impl Shapes {
    #[tool(description = "Area of a square or a circle")]
    async fn area(&self, Parameters(s): Parameters<Shape>) -> Result<String, String> {
        if s.kind != "square" && s.kind != "circle" {
            return Err(format!("unknown shape {}", s.kind));
        }
        let area = if s.kind == "square" {
            s.size * s.size
        } else if s.kind == "circle" {
            std::f64::consts::PI * s.size * s.size
        } else {
            unreachable!("kind was checked above")
        };
        Ok(area.to_string())
    }

    #[tool(description = "Perimeter of a square or a circle")]
    async fn perimeter(&self, Parameters(s): Parameters<Shape>) -> Result<String, String> {
        let perimeter = match s.kind.as_str() {
            "square" => 4.0 * s.size,
            "circle" => 2.0 * std::f64::consts::PI * s.size,
            _ => unreachable!("kind is checked by the schema"),
        };
        Ok(perimeter.to_string())
    }

    #[tool(description = "Side of a square")]
    async fn side(&self, Parameters(s): Parameters<Shape>) -> Result<String, String> {
        if s.kind == "square" {
            Ok(s.size.sqrt().to_string())
        } else {
            panic!("not a square: {}", s.kind)
        }
    }
}
