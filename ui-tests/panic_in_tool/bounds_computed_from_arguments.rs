//@ dep: rmcp = "3.11"
// A helper that indexes with a number computed from its parameters indexes where the tool's
// caller says: `page * size`, `offset - 1` and `row + col * width` are reported through the
// tool that passes its arguments. A bound computed from the helper's own constants is not.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::tool;
use rmcp::tool_router;

pub struct Grid {
    cells: Vec<u8>,
    width: usize,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Cell {
    pub row: usize,
    pub col: usize,
    pub page: usize,
}

fn first_of_page(items: &[u8], page: usize, size: usize) -> u8 {
    items[page * size]
}

fn before(items: &[u8], offset: usize) -> u8 {
    items[offset - 1]
}

fn at(grid: &Grid, row: usize, col: usize) -> u8 {
    grid.cells[row + col * grid.width]
}

fn middle(items: &[u8]) -> u8 {
    let half = 8;
    items[half - 1]
}

#[tool_router]
impl Grid {
    #[tool(description = "Read cells")]
    async fn read(&self, Parameters(cell): Parameters<Cell>) -> Result<String, String> {
        let a = first_of_page(&self.cells, cell.page, 10);
        let b = before(&self.cells, cell.col);
        let c = at(self, cell.row, cell.col);
        let d = middle(&self.cells);
        Ok(format!("{a} {b} {c} {d}"))
    }
}
