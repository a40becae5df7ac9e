#include "sql/operators/view_scan.h"

namespace lbt::sql {

bool ViewScan::Produce(Values* row) {
  if (stream_ == nullptr) {
    Result<std::unique_ptr<ResultStream>> opened = view_query_->Execute(view_params_);
    if (!opened.ok()) return Fail(opened.status());
    stream_ = std::move(opened).value();
  }
  if (!stream_->Next(&inner_)) {
    if (!stream_->status().ok()) return Fail(stream_->status());
    return false;
  }
  ++examined_;
  row->resize(inner_.size() + 1);
  (*row)[0] = Value::Null(Type::Bytes());
  for (size_t i = 0; i < inner_.size(); ++i) (*row)[i + 1] = inner_[i];
  return true;
}

}  // namespace lbt::sql
