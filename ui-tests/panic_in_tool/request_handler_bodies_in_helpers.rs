//@ dep: rmcp = "2.1"
// Request handlers other than tools are judged in the handler itself, not in the helpers
// that build their static data. A helper that is a handler's whole body is the handler: a
// panic there leaves the request without an answer just as one written in place.
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

pub struct Library;

mod prompts {
    use rmcp::model::*;
    use rmcp::ErrorData;

    pub fn fetch(request: GetPromptRequestParams) -> Result<GetPromptResult, ErrorData> {
        let topic = request.arguments.expect("arguments are given");
        Err(ErrorData::invalid_params(format!("no prompt for {topic:?}"), None))
    }

    pub fn catalogue() -> Vec<Prompt> {
        // Static data a listing handler builds through a helper: not reported.
        let names: Vec<&str> = "summary,outline".split(',').collect();
        vec![Prompt::new(names[0], None::<String>, None)]
    }
}

impl ServerHandler for Library {
    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResult, ErrorData> {
        prompts::fetch(request)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(prompts::catalogue()))
    }
}
