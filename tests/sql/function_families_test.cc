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
  EXPECT_EQ(Eval("FORMAT('%T', 'abc')"), "'abc'");
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
  EXPECT_EQ(Eval("TO_JSON_STRING(NULL)"), "null");
  EXPECT_EQ(Eval("TO_JSON_STRING(b'abc')"), "\"YWJj\"");
  EXPECT_EQ(Eval("TO_JSON_STRING(9007199254740993)"), "\"9007199254740993\"");  // past 2^53: a string
  EXPECT_EQ(Eval("TO_JSON_STRING(CAST('nan' AS FLOAT64))"), "\"NaN\"");
  EXPECT_EQ(Eval("TO_JSON_STRING(DATE '2016-10-05')"), "\"2016-10-05\"");
  EXPECT_EQ(Eval("TO_JSON_STRING(['a', 'b'], TRUE)"), "[\n  \"a\",\n  \"b\"\n]");
}

}  // namespace
}  // namespace lbt::sql
