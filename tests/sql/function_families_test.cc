// The function families added for Bigtable's documented list, each checked
// against the reference pages' own examples (GoogleSQL's answers printed
// there; BigQuery's pages where Bigtable's shows none, as noted), with
// their NULL and error behaviour.

#include <gtest/gtest.h>

#include "local/local_bigtable.h"
#include "sql/query.h"
#include "tests/sql/query_lines.h"
#include "tests/test_util.h"

namespace lbt::sql {
namespace {

using Lines = std::vector<std::string>;

class FunctionFamiliesTest : public ::testing::Test {
 protected:
  void SetUp() override { bigtable_ = std::make_unique<LocalBigtable>(dir_.Sub("db"), DatabaseOptions{}); }

  // The one value `expression` computes, as text.
  std::string Eval(const std::string& expression) {
    Result<testing::QueryResult> r = testing::RunQuery(bigtable_.get(), "SELECT " + expression + " AS v");
    EXPECT_TRUE(r.ok()) << expression << ": " << r.status().ToString();
    if (!r.ok() || r->lines.size() != 1) return "<error>";
    return r->lines[0];
  }

  std::string Error(const std::string& expression) {
    Result<testing::QueryResult> r = testing::RunQuery(bigtable_.get(), "SELECT " + expression + " AS v");
    EXPECT_FALSE(r.ok()) << expression;
    return r.ok() ? "" : r.status().message();
  }

  testing::TempDir dir_;
  std::unique_ptr<LocalBigtable> bigtable_;
};

TEST_F(FunctionFamiliesTest, StringFunctionsOfTheReference) {
  EXPECT_EQ(Eval("INITCAP('Hello World-everyone!')"), "Hello World-Everyone!");
  EXPECT_EQ(Eval("INITCAP('Apples1oranges2pears', '12')"), "Apples1Oranges2Pears");
  EXPECT_EQ(Eval("INITCAP('tHisEisEaEsentence', 'E')"), "ThisEIsEAESentence");
  EXPECT_EQ(Eval("INITCAP('ǆemal')"), "ǅemal");  // title case, not upper case
  EXPECT_EQ(Eval("ASCII('abcd')"), "97");
  EXPECT_EQ(Eval("ASCII('')"), "0");
  EXPECT_EQ(Eval("ASCII(NULL)"), "NULL");
  EXPECT_NE(Error("ASCII('é')").find("not ASCII"), std::string::npos);
  EXPECT_EQ(Eval("TRANSLATE('This is a cookie', 'sco', 'zku')"), "Thiz iz a kuukie");
  EXPECT_EQ(Eval("TRANSLATE('abc', 'abc', 'x')"), "x");  // b and c have no target: removed
  EXPECT_NE(Error("TRANSLATE('abc', 'aa', 'xy')").find("Duplicate character \"a\""), std::string::npos);
  EXPECT_EQ(Eval("SOUNDEX('Ashcraft')"), "A261");
  EXPECT_EQ(Eval("SOUNDEX('Robert')"), "R163");
  EXPECT_EQ(Eval("SOUNDEX('Rupert')"), "R163");
  EXPECT_EQ(Eval("SOUNDEX('Tymczak')"), "T522");
  EXPECT_EQ(Eval("SOUNDEX('Pfister')"), "P236");
  EXPECT_EQ(Eval("SOUNDEX('')"), "");
  EXPECT_EQ(Eval("CHARACTER_LENGTH('абв')"), "3");
  // Unicode case mapping for STRING; ß has no one-letter upper case.
  EXPECT_EQ(Eval("UPPER('straße élan')"), "STRASSE ÉLAN");
  EXPECT_EQ(Eval("LOWER('ÀÉÎ')"), "àéî");
  EXPECT_EQ(Eval("LOWER(b'ABC\\xC3')"), std::string("abc\xC3"));  // BYTES: ASCII letters only
}

TEST_F(FunctionFamiliesTest, NormalizationAndCaseFolding) {
  EXPECT_EQ(Eval("NORMALIZE('\\u00ea') = NORMALIZE('e\\u0302')"), "true");
  EXPECT_EQ(Eval("NORMALIZE('\\u00ea', NFD) = 'e\\u0302'"), "true");
  EXPECT_EQ(Eval("NORMALIZE('Raha\\u2004Mahan', NFKC)"), "Raha Mahan");
  EXPECT_EQ(Eval("NORMALIZE_AND_CASEFOLD('The Club') = NORMALIZE_AND_CASEFOLD('the CLUB')"), "true");
  EXPECT_NE(Error("NORMALIZE('x', 'NFX')").find("NFC, NFKC, NFD or NFKD"), std::string::npos);
  EXPECT_EQ(Eval("'\\U0001F600' = '😀'"), "true");
}

TEST_F(FunctionFamiliesTest, RegularExpressionsEveryMatchAndPosition) {
  EXPECT_EQ(Eval("REGEXP_EXTRACT_ALL('Try `func(x)` or `func(y)`', '`(.+?)`')"), "[func(x), func(y)]");
  EXPECT_EQ(Eval("REGEXP_EXTRACT_ALL('a1b22c', '[0-9]*')"), "[, 1, , 22, , ]");
  EXPECT_EQ(Eval("ARRAY_LENGTH(REGEXP_EXTRACT_ALL('none', 'x'))"), "0");
  EXPECT_EQ(Eval("REGEXP_INSTR('ab@cd-ef', '@[^-]*')"), "3");
  EXPECT_EQ(Eval("REGEXP_INSTR('a@cd-ef b@cd-ef', '@[^-]*', 1, 2)"), "10");
  EXPECT_EQ(Eval("REGEXP_INSTR('a@cd-ef b@cd-ef', '@[^-]*', 1, 2, 1)"), "13");
  EXPECT_EQ(Eval("REGEXP_INSTR('a@cd-ef', '@[^-]*', 3)"), "0");
  EXPECT_EQ(Eval("REGEXP_INSTR('éa@b', '@')"), "3");  // characters, not bytes
  EXPECT_NE(Error("REGEXP_INSTR('a', 'a', 0)").find("position must be at least 1"), std::string::npos);
}

TEST_F(FunctionFamiliesTest, FormatOfTheReferenceExamples) {
  EXPECT_EQ(Eval("FORMAT('%d', 10)"), "10");
  EXPECT_EQ(Eval("FORMAT('|%10d|', 11)"), "|        11|");
  EXPECT_EQ(Eval("FORMAT('+%010d+', 12)"), "+0000000012+");
  EXPECT_EQ(Eval("FORMAT(\"%'d\", 123456789)"), "123,456,789");
  EXPECT_EQ(Eval("FORMAT('-|%s|-', 'abcd efg')"), "-|abcd efg|-");
  EXPECT_EQ(Eval("FORMAT('%f %E', 1.1, 2.2)"), "1.100000 2.200000E+00");
  EXPECT_EQ(Eval("FORMAT('%T', 'abc')"), "\"abc\"");
  EXPECT_EQ(Eval("FORMAT('%t|%T|%T|%T', 3.0, CAST('nan' AS FLOAT64), DATE '2020-01-01', STRUCT(1 AS a, 'x' AS b))"),
            "3.0|CAST(\"nan\" AS FLOAT64)|DATE \"2020-01-01\"|(1, \"x\")");
  EXPECT_EQ(Eval("FORMAT('%T', b'ab')"), "b\"ab\"");
  EXPECT_EQ(Eval("FORMAT('%t', [1, 2])"), "[1, 2]");
  EXPECT_EQ(Eval("FORMAT('%*d|%-5s|%.2f', 4, 7, 'ab', 3.14159)"), "   7|ab   |3.14");
  EXPECT_EQ(Eval("FORMAT('%x %X %o %%', 255, 255, 8)"), "ff FF 10 %");
  // NULL is NULL under %t and %T, and makes the result NULL elsewhere.
  EXPECT_EQ(Eval("FORMAT('%t|%T', NULL, NULL)"), "NULL|NULL");
  EXPECT_EQ(Eval("FORMAT('%s', CAST(NULL AS STRING))"), "NULL");
  EXPECT_NE(Error("FORMAT('%d', 'x')").find("%d takes an INT64, not STRING"), std::string::npos);
  EXPECT_NE(Error("FORMAT('%d %d', 1)").find("too few arguments"), std::string::npos);
  EXPECT_NE(Error("FORMAT('%d', 1, 2)").find("more arguments than"), std::string::npos);
}

TEST_F(FunctionFamiliesTest, DateFunctionsOfTheReference) {
  EXPECT_EQ(Eval("DATE(2016, 12, 25)"), "2016-12-25");
  EXPECT_EQ(Eval("DATE(TIMESTAMP '2008-12-25 15:30:00+00')"), "2008-12-25");
  EXPECT_EQ(Eval("DATE(TIMESTAMP '2008-12-25 20:30:00+00', '+05:00')"), "2008-12-26");
  EXPECT_NE(Error("DATE(2016, 2, 30)").find("Invalid date"), std::string::npos);
  EXPECT_NE(Error("DATE(TIMESTAMP '2008-12-25 15:30:00+00', 'America/Los_Angeles')").find("no named zones"),
            std::string::npos);
  EXPECT_EQ(Eval("DATE_ADD(DATE '2008-12-25', INTERVAL 5 DAY)"), "2008-12-30");
  EXPECT_EQ(Eval("DATE_SUB(DATE '2008-12-25', INTERVAL 5 DAY)"), "2008-12-20");
  EXPECT_EQ(Eval("DATE_ADD(DATE '2008-01-31', INTERVAL 1 MONTH)"), "2008-02-29");  // the month's last day
  EXPECT_EQ(Eval("DATE_SUB(DATE '2009-02-28', INTERVAL 1 YEAR)"), "2008-02-28");
  EXPECT_EQ(Eval("DATE_DIFF(DATE '2010-07-07', DATE '2008-12-25', DAY)"), "559");
  EXPECT_EQ(Eval("DATE_DIFF(DATE '2017-10-15', DATE '2017-10-14', DAY)"), "1");
  EXPECT_EQ(Eval("DATE_DIFF(DATE '2017-10-15', DATE '2017-10-14', WEEK)"), "1");
  EXPECT_EQ(Eval("DATE_DIFF(DATE '2017-12-30', DATE '2014-12-30', YEAR)"), "3");
  EXPECT_EQ(Eval("DATE_DIFF(DATE '2017-12-30', DATE '2014-12-30', ISOYEAR)"), "2");
  EXPECT_EQ(Eval("DATE_DIFF(DATE '2017-12-18', DATE '2017-12-17', WEEK(MONDAY))"), "1");
  EXPECT_EQ(Eval("DATE_TRUNC(DATE '2008-12-25', MONTH)"), "2008-12-01");
  EXPECT_EQ(Eval("DATE_TRUNC(DATE '2017-11-05', WEEK(MONDAY))"), "2017-10-30");
  EXPECT_EQ(Eval("DATE_TRUNC(DATE '2015-06-15', ISOYEAR)"), "2014-12-29");
  EXPECT_EQ(Eval("LAST_DAY(DATE '2008-11-25')"), "2008-11-30");
  EXPECT_EQ(Eval("LAST_DAY(DATE '2008-11-25', YEAR)"), "2008-12-31");
  EXPECT_EQ(Eval("LAST_DAY(DATE '2008-11-10', WEEK(MONDAY))"), "2008-11-16");
  EXPECT_EQ(Eval("UNIX_DATE(DATE '2008-12-25')"), "14238");
  EXPECT_EQ(Eval("DATE_FROM_UNIX_DATE(14238)"), "2008-12-25");
  EXPECT_EQ(Eval("FORMAT_DATE('%x', DATE '2008-12-25')"), "12/25/08");
  EXPECT_EQ(Eval("FORMAT_DATE('%b-%d-%Y', DATE '2008-12-25')"), "Dec-25-2008");
  EXPECT_EQ(Eval("FORMAT_DATE('%b %Y', DATE '2008-12-25')"), "Dec 2008");
  EXPECT_EQ(Eval("PARSE_DATE('%A %b %e %Y', 'Thursday Dec 25 2008')"), "2008-12-25");
  EXPECT_EQ(Eval("PARSE_DATE('%Y%m%d', '20081225')"), "2008-12-25");
  EXPECT_EQ(Eval("PARSE_DATE('%F', '2000-12-30')"), "2000-12-30");
  EXPECT_EQ(Eval("PARSE_DATE('%D', '12/25/08')"), "2008-12-25");  // the composites: each its elements
  EXPECT_EQ(Eval("PARSE_TIMESTAMP('%F %T', '2024-01-02 03:04:05')"), "2024-01-02 03:04:05+00");
  EXPECT_EQ(Eval("PARSE_TIMESTAMP('%F %R', '2024-01-02 03:04')"), "2024-01-02 03:04:00+00");
  EXPECT_NE(Error("PARSE_DATE('%Y-%m-%d', '2008-13-01')").find("Out-of-range"), std::string::npos);
  EXPECT_NE(Error("PARSE_DATE('%Y', '2008 tail')").find("trailing data"), std::string::npos);
  EXPECT_EQ(Eval("GENERATE_DATE_ARRAY('2016-10-05', '2016-10-08')"),
            "[2016-10-05, 2016-10-06, 2016-10-07, 2016-10-08]");
  EXPECT_EQ(Eval("GENERATE_DATE_ARRAY('2016-10-05', '2016-10-09', INTERVAL 2 DAY)"),
            "[2016-10-05, 2016-10-07, 2016-10-09]");
  EXPECT_EQ(Eval("GENERATE_DATE_ARRAY('2016-01-01', '2016-12-31', INTERVAL 2 MONTH)"),
            "[2016-01-01, 2016-03-01, 2016-05-01, 2016-07-01, 2016-09-01, 2016-11-01]");
  EXPECT_EQ(Eval("GENERATE_DATE_ARRAY('2016-10-05', '2016-10-01', INTERVAL -3 DAY)"), "[2016-10-05, 2016-10-02]");
  EXPECT_EQ(Eval("GENERATE_DATE_ARRAY('2016-10-05', '2016-10-01')"), "[]");
}

TEST_F(FunctionFamiliesTest, TimestampFunctionsOfTheReference) {
  EXPECT_EQ(Eval("PARSE_TIMESTAMP('%c', 'Thu Dec 25 07:30:00 2008')"), "2008-12-25 07:30:00+00");
  EXPECT_EQ(Eval("PARSE_TIMESTAMP('%Y-%m-%d %H:%M:%E*S%Ez', '2008-12-25 07:30:00.25+02:00')"),
            "2008-12-25 05:30:00.250+00");
  EXPECT_EQ(Eval("FORMAT_TIMESTAMP('%c', TIMESTAMP '2050-12-25 15:30:55+00', 'UTC')"), "Sun Dec 25 15:30:55 2050");
  // A zone moves the clock and names itself; %s stays UTC's.
  EXPECT_EQ(Eval("FORMAT_TIMESTAMP('%z|%Ez|%Z|%s|%H', TIMESTAMP '2050-12-25 03:04:05+00', '-05:00')"),
            "-0500|-05:00|UTC-5|2555550245|22");
  EXPECT_EQ(Eval("FORMAT_DATE('%E4Y %J', DATE '2008-12-25')"), "2008 361");
  EXPECT_EQ(Eval("FORMAT_TIMESTAMP('%b %Y %Ez', TIMESTAMP '2050-12-25 15:30:55+00')"), "Dec 2050 +00:00");
  EXPECT_EQ(Eval("FORMAT_TIMESTAMP('%Y-%m-%dT%H:%M:%E3S', TIMESTAMP '2050-12-25 15:30:55.123456+00')"),
            "2050-12-25T15:30:55.123");
  EXPECT_EQ(Eval("FORMAT_TIMESTAMP('%G-W%V-%u %j %U %W', TIMESTAMP '2021-01-03 00:00:00+00')"), "2020-W53-7 003 01 00");
  EXPECT_EQ(Eval("STRING(TIMESTAMP '2008-12-25 15:30:00+00', '+05:30')"), "2008-12-25 21:00:00+05:30");
  EXPECT_EQ(Eval("STRING(TIMESTAMP '2008-12-25 15:30:00+00')"), "2008-12-25 15:30:00+00");
  EXPECT_EQ(Eval("TIMESTAMP_FROM_UNIX_SECONDS(1230219000)"), "2008-12-25 15:30:00+00");
  EXPECT_EQ(Eval("TIMESTAMP_FROM_UNIX_MICROS(1230219000000000)"), "2008-12-25 15:30:00+00");
  EXPECT_EQ(Eval("GENERATE_TIMESTAMP_ARRAY('2016-10-05 00:00:00', '2016-10-05 00:00:02', INTERVAL 1 SECOND)"),
            "[2016-10-05 00:00:00+00, 2016-10-05 00:00:01+00, 2016-10-05 00:00:02+00]");
  EXPECT_EQ(Eval("GENERATE_TIMESTAMP_ARRAY('2016-10-05 00:00:00', '2016-10-06 00:00:00', INTERVAL 10 HOUR)"),
            "[2016-10-05 00:00:00+00, 2016-10-05 10:00:00+00, 2016-10-05 20:00:00+00]");
  EXPECT_NE(
      Error("GENERATE_TIMESTAMP_ARRAY('2016-10-05 00:00:00', '2016-10-06 00:00:00', INTERVAL 0 HOUR)").find("non-zero"),
      std::string::npos);
}

TEST_F(FunctionFamiliesTest, JsonFunctionsOverText) {
  const std::string doc = "'{\"class\": {\"students\": [{\"name\": \"Jane\"}, {\"name\": \"Jamie\"}]}}'";
  EXPECT_EQ(Eval("JSON_QUERY(" + doc + ", '$.class.students[0]')"), "{\"name\":\"Jane\"}");
  EXPECT_EQ(Eval("JSON_VALUE(" + doc + ", '$.class.students[1].name')"), "Jamie");
  EXPECT_EQ(Eval("JSON_EXTRACT(" + doc + ", \"$['class']['students'][0]\")"), "{\"name\":\"Jane\"}");
  EXPECT_EQ(Eval("JSON_EXTRACT_SCALAR('{\"a\": [1, 2]}', '$.a[1]')"), "2");
  EXPECT_EQ(Eval("JSON_QUERY('{\"a.b\": 1}', '$.\"a.b\"')"), "1");
  EXPECT_EQ(Eval("JSON_VALUE('{\"a\": {\"b\": 1}}', '$.a')"), "NULL");  // not a scalar
  EXPECT_EQ(Eval("JSON_VALUE('{\"a\": null}', '$.a')"), "NULL");
  EXPECT_EQ(Eval("JSON_VALUE('\"plain\"')"), "plain");
  EXPECT_EQ(Eval("JSON_QUERY('not json', '$')"), "NULL");
  EXPECT_EQ(Eval("JSON_QUERY('{\"a\": 1}', '$.b')"), "NULL");
  EXPECT_EQ(Eval("JSON_QUERY_ARRAY('[1, \"x\", {\"k\": true}]')"), "[1, \"x\", {\"k\":true}]");
  EXPECT_EQ(Eval("JSON_QUERY_ARRAY('{\"a\": 1}')"), "NULL");
  EXPECT_NE(Error("JSON_QUERY('{}', 'a.b')").find("Invalid JSONPath"), std::string::npos);
  EXPECT_EQ(Eval("TO_JSON_STRING([1, 2])"), "[1,2]");
  EXPECT_EQ(Eval("TO_JSON_STRING(STRUCT(1 AS id, [10, 20] AS coordinates))"), "{\"id\":1,\"coordinates\":[10,20]}");
  EXPECT_EQ(Eval("JSON_QUERY('{\"b\": 1, \"a\": 2}', '$')"), "{\"b\":1,\"a\":2}");  // members keep their order
  EXPECT_EQ(Eval("STRUCT(1 AS id, 'x' AS tag).tag"), "x");
  EXPECT_EQ(Eval("STRUCT(1 AS id, 'x')"), "{id: 1, x}");  // an unnamed field
  EXPECT_EQ(Eval("TO_JSON_STRING(STRUCT(1, 2))"), "{\"_field_1\":1,\"_field_2\":2}");
  EXPECT_EQ(Eval("TO_JSON_STRING(NULL)"), "null");
  EXPECT_EQ(Eval("TO_JSON_STRING(b'abc')"), "\"YWJj\"");
  EXPECT_EQ(Eval("TO_JSON_STRING(9007199254740993)"), "\"9007199254740993\"");  // past 2^53: a string
  EXPECT_EQ(Eval("TO_JSON_STRING(CAST('nan' AS FLOAT64))"), "\"NaN\"");
  EXPECT_EQ(Eval("TO_JSON_STRING(DATE '2016-10-05')"), "\"2016-10-05\"");
  EXPECT_EQ(Eval("TO_JSON_STRING(['a', 'b'], TRUE)"), "[\n  \"a\",\n  \"b\"\n]");
}

TEST_F(FunctionFamiliesTest, ArraySearchFunctionsAndLambdas) {
  EXPECT_EQ(Eval("ARRAY_INCLUDES([1, 2, 3], 2)"), "true");
  EXPECT_EQ(Eval("ARRAY_INCLUDES([1, NULL, 3], 5)"), "false");
  EXPECT_EQ(Eval("ARRAY_INCLUDES([1, 2, 3], NULL)"), "NULL");
  EXPECT_EQ(Eval("ARRAY_INCLUDES([1, 2, 3], e -> e > 2)"), "true");
  EXPECT_EQ(Eval("ARRAY_INCLUDES_ALL([1, 2, 3], [1, 3])"), "true");
  EXPECT_EQ(Eval("ARRAY_INCLUDES_ALL([1, 2, 3], [1, 4])"), "false");
  EXPECT_EQ(Eval("ARRAY_INCLUDES_ANY([1, 2, 3], [5, 3])"), "true");
  EXPECT_EQ(Eval("ARRAY_INCLUDES_ANY([1, 2, 3], CAST([] AS ARRAY<INT64>))"), "false");
  EXPECT_EQ(Eval("ARRAY_IS_DISTINCT([1, 2, 3])"), "true");
  EXPECT_EQ(Eval("ARRAY_IS_DISTINCT([1, 1, 2])"), "false");
  EXPECT_EQ(Eval("ARRAY_IS_DISTINCT([NULL, NULL])"), "false");
  EXPECT_EQ(Eval("ARRAY_OFFSET(['a', 'b', 'a'], 'a')"), "0");
  EXPECT_EQ(Eval("ARRAY_OFFSET(['a', 'b', 'a'], 'a', 'LAST')"), "2");
  EXPECT_EQ(Eval("ARRAY_OFFSET(['a', 'b'], 'z')"), "NULL");
  EXPECT_EQ(Eval("ARRAY_OFFSETS(['a', 'b', 'a'], 'a')"), "[0, 2]");
  EXPECT_EQ(Eval("ARRAY_LAST_N([1, 2, 3, 4, 5], 2)"), "[4, 5]");
  EXPECT_EQ(Eval("ARRAY_LAST_N([1, 2], 5)"), "[1, 2]");
  EXPECT_NE(Error("ARRAY_LAST_N([1, 2], -1)").find("must not be negative"), std::string::npos);
  // The reference's lambdas: the element, and with two parameters its offset.
  EXPECT_EQ(Eval("ARRAY_FILTER([1, 2, 3], e -> e > 1)"), "[2, 3]");
  EXPECT_EQ(Eval("ARRAY_FILTER([0, 2, 3], (e, i) -> e > i)"), "[2, 3]");
  EXPECT_EQ(Eval("ARRAY_TRANSFORM([1, 4, 3], (e, i) -> e * i)"), "[0, 4, 6]");
  EXPECT_EQ(Eval("ARRAY_TRANSFORM(['a', 'b'], s -> CONCAT(s, '!'))"), "[a!, b!]");
  EXPECT_EQ(Eval("ARRAY_TRANSFORM([1, 2], x -> ARRAY_LENGTH(ARRAY_FILTER([x, x, 1], y -> y = x)))"), "[3, 2]");
  EXPECT_EQ(Eval("ARRAY_FILTER(CAST(NULL AS ARRAY<INT64>), e -> e > 1)"), "NULL");
  EXPECT_NE(Error("ARRAY_FILTER([1], e -> e + 1)").find("lambda must return BOOL"), std::string::npos);
  EXPECT_NE(Error("ABS(e -> e)").find("takes no lambda"), std::string::npos);
}

TEST_F(FunctionFamiliesTest, DebuggingFunctionsAndTheSafePrefix) {
  EXPECT_EQ(Eval("IFERROR(1 / 0, -1)"), "-1");
  EXPECT_EQ(Eval("IFERROR(10, 0)"), "10");
  // A branch takes the type the branches widen to: FLOAT64 here, whichever runs.
  EXPECT_EQ(Eval("TO_JSON_STRING(IFERROR(1 / 0, -1))"), "-1.0");
  EXPECT_EQ(Eval("TO_JSON_STRING(IF(TRUE, -1, 1.5))"), "-1.0");
  EXPECT_EQ(Eval("TO_JSON_STRING(CASE WHEN TRUE THEN 2 ELSE 2.5 END)"), "2.0");
  EXPECT_EQ(Eval("ISERROR(1 / 0)"), "true");
  EXPECT_EQ(Eval("ISERROR(1)"), "false");
  EXPECT_EQ(Eval("NULLIFERROR(1 / 0)"), "NULL");
  EXPECT_EQ(Eval("NULLIFERROR('ok')"), "ok");
  EXPECT_NE(Error("IFERROR(1 / 0, 1 / 0)").find("division by zero"), std::string::npos);  // the catch's own error
  EXPECT_EQ(Eval("SAFE.SUBSTR('foo', 0, -2)"), "NULL");
  EXPECT_EQ(Eval("SAFE.PARSE_DATE('%Y', 'x')"), "NULL");
  EXPECT_EQ(Eval("SAFE.ASCII('a')"), "97");
  EXPECT_NE(Error("SAFE.IF(TRUE, 1, 2)").find("does not support the SAFE. prefix"), std::string::npos);
  EXPECT_NE(Error("SAFE.NOPE(1)").find("Function not found: NOPE"), std::string::npos);
  // An untyped NULL takes the type the function needs.
  EXPECT_EQ(Eval("DATE_ADD(NULL, INTERVAL 1 DAY)"), "NULL");
  EXPECT_EQ(Eval("ARRAY_IS_DISTINCT(NULL)"), "NULL");
  EXPECT_NE(Error("ARRAY_TRANSFORM([1], e -> [e])").find("arrays of arrays"), std::string::npos);
  EXPECT_NE(Error("[[1], [2]]").find("arrays of arrays are not supported"), std::string::npos);
}

TEST_F(FunctionFamiliesTest, ApproximateAggregatesOfTheReference) {
  ASSERT_OK(bigtable_->CreateTable("xs", {{"f", GcRule::Never(), ValueType::kString}}, {}, false));
  // The reference's x: 1, 1, 1, 4, 5, 6, 7, 8, 9, 10; and fruit.
  const int xs[] = {1, 1, 1, 4, 5, 6, 7, 8, 9, 10};
  const char* fruit[] = {"apple", "apple", "pear", "pear", "pear", "banana", "", "", "", ""};
  for (int i = 0; i < 10; ++i) {
    std::vector<Mutation> m = {Mutation::SetCell("f", "x", std::to_string(xs[i]), 1000)};
    if (fruit[i][0] != '\0') m.push_back(Mutation::SetCell("f", "fruit", fruit[i], 1000));
    ASSERT_OK(bigtable_->MutateRow("xs", "r" + std::to_string(i), m));
  }
  auto rows = [&](const std::string& q) {
    Result<testing::QueryResult> r = testing::RunQuery(bigtable_.get(), q);
    EXPECT_TRUE(r.ok()) << q << ": " << r.status().ToString();
    return r.ok() ? r->lines : Lines{};
  };
  const std::string x = "CAST(f['x'] AS INT64)";
  EXPECT_EQ(rows("SELECT APPROX_QUANTILES(" + x + ", 2) FROM xs"), (Lines{"[1, 5, 10]"}));
  EXPECT_EQ(rows("SELECT APPROX_QUANTILES(DISTINCT " + x + ", 2) FROM xs"), (Lines{"[1, 6, 10]"}));
  EXPECT_EQ(rows("SELECT APPROX_QUANTILES(" + x + ", 100)[OFFSET(90)] FROM xs"), (Lines{"9"}));
  EXPECT_EQ(rows("SELECT APPROX_COUNT_DISTINCT(" + x + "), APPROX_COUNT_DISTINCT(f['fruit']) FROM xs"), (Lines{"8|3"}));
  EXPECT_EQ(rows("SELECT APPROX_TOP_COUNT(f['fruit'], 2) FROM xs WHERE f['fruit'] IS NOT NULL"),
            (Lines{"[{value: pear, count: 3}, {value: apple, count: 2}]"}));
  EXPECT_EQ(rows("SELECT APPROX_TOP_SUM(f['fruit'], " + x + ", 2) FROM xs WHERE f['fruit'] IS NOT NULL"),
            (Lines{"[{value: pear, sum: 10}, {value: banana, sum: 6}]"}));
  EXPECT_EQ(rows("SELECT ARRAY_CONCAT_AGG([" + x + "]) FROM xs WHERE " + x + " > 7"), (Lines{"[8, 9, 10]"}));
  Result<testing::QueryResult> bad =
      testing::RunQuery(bigtable_.get(), "SELECT APPROX_QUANTILES(" + x + ", 0) FROM xs");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("count must be at least 1"), std::string::npos);
}

TEST_F(FunctionFamiliesTest, VectorsAndRandomNumbers) {
  EXPECT_EQ(Eval("TO_FLOAT32(b'\\x3f\\x80\\x00\\x00')"), "1");
  EXPECT_EQ(Eval("TO_VECTOR32(b'\\x3f\\x80\\x00\\x00\\x40\\x00\\x00\\x00')"), "[1, 2]");
  EXPECT_EQ(Eval("TO_VECTOR64(b'\\x3f\\xf0\\x00\\x00\\x00\\x00\\x00\\x00')"), "[1]");
  EXPECT_NE(Error("TO_VECTOR32(b'abc')").find("multiple of 4 bytes"), std::string::npos);
  EXPECT_EQ(Eval("ROUND(COSINE_DISTANCE([1.0, 2.0], [3.0, 4.0]), 10)"), "0.0161300899");
  EXPECT_EQ(Eval("EUCLIDEAN_DISTANCE([1.0, 2.0], [3.0, 4.0]) = SQRT(8)"), "true");
  EXPECT_NE(Error("EUCLIDEAN_DISTANCE([1.0], [1.0, 2.0])").find("different lengths"), std::string::npos);
  EXPECT_NE(Error("COSINE_DISTANCE([0.0, 0.0], [1.0, 2.0])").find("zero vector"), std::string::npos);
  EXPECT_EQ(Eval("RAND() >= 0 AND RAND() < 1"), "true");
}

}  // namespace
}  // namespace lbt::sql
