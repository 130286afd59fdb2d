//@ dep: turbomcp = "3.6"
// turbomcp catches panics in handlers itself (answered with -32603): nothing to report.
// Its tools' Err values become isError results, so `?` is fine too.
use turbomcp::prelude::*;

#[derive(Clone)]
struct Calculator;

#[server(name = "calculator", version = "1.0.0")]
impl Calculator {
    #[tool(description = "Divide a by b")]
    async fn divide(&self, a: f64, b: f64) -> McpResult<f64> {
        if b == 0.0 {
            return Err(McpError::invalid_params("cannot divide by zero"));
        }
        let q: f64 = format!("{}", a / b).parse().unwrap();
        Ok(q)
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    Calculator.run_stdio().await?;
    Ok(())
}
