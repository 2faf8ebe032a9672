//===- Einsum.cpp - Einsum equations and the op's shape inference ---------===//

#include "dialects/graph/IR/Einsum.h"
#include "dialects/graph/IR/GraphOps.h"
#include "dialects/graph/Interfaces/ShapeHelpers.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace mlir;

namespace infer::graph {

FailureOr<EinsumEquation>
parseEinsum(StringRef equation, ArrayRef<int64_t> ranks, std::string &why) {
  std::string text;
  for (char c : equation) {
    if (c != ' ') {
      text.push_back(c);
    }
  }
  size_t arrow = text.find("->");
  std::string lhs = text.substr(0, arrow);
  EinsumEquation result;
  for (StringRef term : llvm::split(lhs, ',')) {
    result.terms.push_back(term.str());
  }
  if (result.terms.size() != ranks.size()) {
    why = "the equation has " + std::to_string(result.terms.size()) +
          " terms for " + std::to_string(ranks.size()) + " operands";
    return failure();
  }
  auto isLetters = [](StringRef s) {
    return llvm::all_of(s, [](char c) { return llvm::isAlpha(c); });
  };
  int64_t ellipsisRank = 0;
  SmallVector<int64_t> termEllipsis;
  for (auto [term, rank] : llvm::zip(result.terms, ranks)) {
    size_t dots = term.find("...");
    std::string named = term;
    if (dots != std::string::npos) {
      named.erase(dots, 3);
    }
    int64_t e = dots == std::string::npos
                    ? 0
                    : rank - static_cast<int64_t>(named.size());
    if (!isLetters(named) || e < 0 ||
        (dots == std::string::npos &&
         static_cast<int64_t>(named.size()) != rank)) {
      why = "term '" + term + "' does not match its operand's rank " +
            std::to_string(rank);
      return failure();
    }
    termEllipsis.push_back(e);
    ellipsisRank = std::max(ellipsisRank, e);
  }
  std::string spare;
  for (char c = 'A';
       c <= 'z' && static_cast<int64_t>(spare.size()) < ellipsisRank; ++c) {
    if (llvm::isAlpha(c) && text.find(c) == std::string::npos) {
      spare.push_back(c);
    }
  }
  if (static_cast<int64_t>(spare.size()) < ellipsisRank) {
    why = "the ellipsis spans more dims than unused letters";
    return failure();
  }
  auto expand = [&](std::string term, int64_t e) {
    size_t dots = term.find("...");
    if (dots != std::string::npos) {
      term.replace(dots, 3, spare.substr(spare.size() - e));
    }
    return term;
  };
  for (auto [term, e] : llvm::zip(result.terms, termEllipsis)) {
    term = expand(term, e);
  }
  if (arrow != std::string::npos) {
    result.output = expand(text.substr(arrow + 2), ellipsisRank);
  } else {
    result.output = spare;
    for (char c = 'A'; c <= 'z'; ++c) {
      if (llvm::isAlpha(c) && std::count(lhs.begin(), lhs.end(), c) == 1) {
        result.output.push_back(c);
      }
    }
  }
  for (char c : result.output) {
    bool used = llvm::any_of(result.terms, [&](const std::string &term) {
      return term.find(c) != std::string::npos;
    });
    if (!llvm::isAlpha(c) || !used) {
      why = std::string("output letter '") + c + "' appears in no term";
      return failure();
    }
  }
  return result;
}

/// The output's dims are the letters' extents: a letter's size-1 dims
/// broadcast against its other occurrences.
LogicalResult EinsumOp::inferResultTypes(SmallVectorImpl<Type> &inferred) {
  Type resultType = getOutput().getType();
  SmallVector<int64_t> ranks;
  SmallVector<RankedTensorType> types;
  for (Value input : getInputs()) {
    auto ranked = getRanked(input);
    if (!ranked) {
      inferred.push_back(resultType);
      return success();
    }
    ranks.push_back(ranked.getRank());
    types.push_back(ranked);
  }
  std::string why;
  FailureOr<EinsumEquation> parsed = parseEinsum(getEquation(), ranks, why);
  if (failed(parsed)) {
    return emitOpError(why);
  }
  // 1 until seen; a static size other than 1 wins; otherwise dynamic.
  llvm::DenseMap<char, int64_t> extent;
  for (auto [term, type] : llvm::zip(parsed->terms, types)) {
    for (auto [c, size] : llvm::zip(term, type.getShape())) {
      auto [it, fresh] = extent.try_emplace(c, size);
      if (!fresh && (it->second == 1 || ShapedType::isDynamic(it->second)) &&
          size != 1) {
        it->second = size;
      }
    }
  }
  SmallVector<int64_t> shape;
  for (char c : parsed->output) {
    shape.push_back(extent.lookup(c));
  }
  inferred.push_back(withShape(resultType, shape));
  return success();
}

} // namespace infer::graph
