//===- ReductionOps.td - reduction graph ops ------------------------------===//

#ifndef INFER_DIALECTS_GRAPH_IR_REDUCTIONOPS_TD
#define INFER_DIALECTS_GRAPH_IR_REDUCTIONOPS_TD

include "dialects/graph/IR/Base.td"

def Graph_ReduceL1Op : Graph_ReduceOp<"reduce_l1", "ReduceL1", "the L1 norm">;
def Graph_ReduceL2Op : Graph_ReduceOp<"reduce_l2", "ReduceL2", "the L2 norm">;
def Graph_ReduceLogSumOp : Graph_ReduceOp<"reduce_log_sum", "ReduceLogSum",
                                          "the log of the sum">;
def Graph_ReduceLogSumExpOp : Graph_ReduceOp<"reduce_log_sum_exp",
    "ReduceLogSumExp", "the log of the sum of exponentials">;
def Graph_ReduceMaxOp : Graph_ReduceOp<"reduce_max", "ReduceMax", "the maximum">;
def Graph_ReduceMeanOp : Graph_ReduceOp<"reduce_mean", "ReduceMean", "the mean">;
def Graph_ReduceMinOp : Graph_ReduceOp<"reduce_min", "ReduceMin", "the minimum">;
def Graph_ReduceProdOp : Graph_ReduceOp<"reduce_prod", "ReduceProd", "the product">;
def Graph_ReduceSumOp : Graph_ReduceOp<"reduce_sum", "ReduceSum", "the sum">;
def Graph_ReduceSumSquareOp : Graph_ReduceOp<"reduce_sum_square",
    "ReduceSumSquare", "the sum of squares">;

class Graph_ArgOp<string mnemonic, string onnxName, string what>
    : Graph_OnnxOp<mnemonic, onnxName, "index of the " # what # " along an axis",
        (ins AnyTensor:$data, Graph_I64<0>:$axis, Graph_I64<1>:$keepdims,
             Graph_I64<0>:$select_last_index),
        (outs AnyTensor:$reduced), 1> {
  let hasVerifier = 1;
}

def Graph_ArgMaxOp : Graph_ArgOp<"arg_max", "ArgMax", "maximum">;
def Graph_ArgMinOp : Graph_ArgOp<"arg_min", "ArgMin", "minimum">;

#endif // INFER_DIALECTS_GRAPH_IR_REDUCTIONOPS_TD
