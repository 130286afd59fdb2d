//@ dep: rmcp = "3.11"
//@ lib
// Literal and constant codes in the reserved range; standard, MCP-defined and application
// codes are fine.
use rmcp::ErrorData;
use rmcp::model::ErrorCode;

const RATE_LIMITED: i32 = -32029;
const NOT_READY: i32 = 4001;

pub fn errors() -> Vec<ErrorData> {
    vec![
        ErrorData::new(ErrorCode(-32050), "quota", None),
        ErrorData::new(ErrorCode(-32001), "timeout", None),
        ErrorData::new(ErrorCode(-32100), "weird", None),
        ErrorData::new(ErrorCode(RATE_LIMITED), "slow down", None),
        ErrorData::new(ErrorCode(-32602), "bad params", None),
        ErrorData::new(ErrorCode(-32021), "missing capability", None),
        ErrorData::new(ErrorCode(NOT_READY), "not ready", None),
        ErrorData::new(ErrorCode(-40001), "app code", None),
        ErrorData::new(ErrorCode::INTERNAL_ERROR, "internal", None),
    ]
}
